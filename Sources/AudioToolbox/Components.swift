internal import AUCore
internal import AUEngine
internal import AUAppleUnits
internal import AULV2
import Foundation
import Synchronization

/// One audio component as `AudioComponent` hands it out: Apple's description and the AUHost
/// unit behind it. Entries live as long as the process (an `AudioComponent` never dangles).
final class ComponentEntry: @unchecked Sendable {
    let component: Component
    init(_ component: Component) { self.component = component }
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }
}

/// Apple's units by Apple's descriptions (manufacturer `appl`): AUAppleUnits' (the units
/// `auhost` lists too, the device outputs among them), then AUHost's own built-in units under
/// theirs (`AUHs`), then the machine's LV2 plugins under the codes `auhost list` shows
/// (`aufx:cmpr:CaSt`), in this process or, as `AUHOST_ISOLATION` says, in child processes
/// (``PluginIsolation``).
enum AppleComponents {
    static let apple: AUCore.FourCharCode = AppleUnits.manufacturer

    /// Apple's device output units: all play on the output device (AUHOST_DEVICE).
    static let deviceOutputs = OutputDevice.units

    /// The registry every AUGraph and `AudioComponentFindNext` use, made once.
    static let registry: ComponentRegistry = {
        let registry = ComponentRegistry()
        for unit in AppleUnits().discoverComponents().components { registry.register(unit) }
        for builtin in BuiltinUnits().discoverComponents().components { registry.register(builtin) }
        let isolation = PluginIsolation.fromEnvironment()
        for plugin in LV2Provider(discoveryCacheFolder: LV2Provider.standardCacheFolder).discoverComponents().components {
            registry.register(isolation.applied(to: plugin))
        }
        return registry
    }()

    /// One entry per registered component, in the registry's order.
    static let entries: [ComponentEntry] = registry.components.map(ComponentEntry.init)

    /// The live entry behind an `AudioComponent`, or nil.
    static func entry(_ pointer: OpaquePointer?) -> ComponentEntry? {
        guard let pointer else { return nil }
        return entries.first { $0.pointer == pointer }
    }

    /// The entry of a component, by identity of its description.
    static func entry(for description: ComponentDescription) -> ComponentEntry? {
        entries.first { $0.component.description == description }
    }
}
