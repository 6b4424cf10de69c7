import AUAppleUnits
import AUCore
import AUEngine
import AUJACK
import AULV2
import AUNative
import AUSampler

/// Builds the registry of every unit on the machine: built-in units, then each backend.
/// - Thread: [control]
public enum HostRegistry {
    /// The providers, in discovery order: AUHost's built-in units, then Apple's by Apple's
    /// descriptions (`appl`, the units of the AudioToolbox library, its device outputs among them).
    /// - Thread: [control]
    public static func providers() -> [any ComponentProvider] {
        [BuiltinUnits(), SamplerUnits(), AppleUnits(), JACKUnits(), LV2Provider(discoveryCacheFolder: LV2Provider.standardCacheFolder), NativeProvider()]
    }

    /// - Thread: [control]
    public static func make() -> ComponentRegistry {
        ComponentRegistry(providers: providers())
    }
}
