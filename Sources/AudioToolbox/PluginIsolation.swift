internal import AUCore
internal import AUBridge
import Foundation
import Synchronization

/// Where a Core Audio program's LV2 plugins run: `AUHOST_ISOLATION=none` (or unset: in the
/// program's process), `per-unit` (each instance in a child process of its own) or
/// `together` (every instance in one child), as `auhost render --isolation` runs them
/// (docs/ISOLATION.md). An isolated instance whose child crashes, exits or hangs renders
/// silence from then on (`AudioUnitRender` goes on returning `noErr`, as a graph's node
/// does), and one line on standard error names it and what happened; the program goes on.
/// - Thread: [control]
final class PluginIsolation: @unchecked Sendable {
    /// The environment variable a program's user sets.
    static let variable = "AUHOST_ISOLATION"

    let mode: UnitIsolation
    private let isolator: BridgeIsolator?
    /// Numbers each isolated instance, whose name a fault line carries (`'Calf Compressor 2'`).
    private let instances = Atomic<Int>(0)

    /// The isolation `AUHOST_ISOLATION` asks for; a value that is not one of the three words
    /// is one line on standard error, and the plugins run in the process.
    /// - Thread: [control]
    static func fromEnvironment() -> PluginIsolation {
        let given = ProcessInfo.processInfo.environment[variable] ?? ""
        guard let mode = given.isEmpty ? UnitIsolation.none : UnitIsolation(rawValue: given) else {
            FileHandle.standardError.write(Data("AudioToolbox: \(variable)=\(given): expected one of \(UnitIsolation.choices); the plugins run in this process\n".utf8))
            return PluginIsolation(mode: .none)
        }
        return PluginIsolation(mode: mode)
    }

    private init(mode: UnitIsolation) {
        self.mode = mode
        isolator = mode == .none ? nil : BridgeIsolator { fault in
            FileHandle.standardError.write(Data("AudioToolbox: \(fault.description)\n".utf8))
        }
    }

    /// `plugin` as the registry hands it out: itself in process, else a component whose every
    /// instance is made in a child, named after the plugin and numbered.
    /// - Thread: [control]
    func applied(to plugin: Component) -> Component {
        guard let isolator else { return plugin }
        return plugin.withFactory { [self] () throws(AudioUnitError) -> AUCore.AudioUnit in
            let number = instances.add(1, ordering: .relaxed).newValue
            return try isolator.isolated(plugin, node: "\(plugin.name) \(number)", reference: "lv2:" + plugin.identifier, mode: mode).instantiate()
        }
    }
}
