import AUCore

/// The sampler as a component provider: `aumu:samp:AUHs`, one of the units built into
/// AUHost (manufacturer `AUHs`), listed apart from AUEngine's because it links libfluidsynth.
/// - Thread: [control]
public struct SamplerUnits: ComponentProvider {
    /// The sampler's component description.
    public static let description = ComponentDescription(type: ComponentType.musicDevice, subtype: "samp", manufacturer: "AUHs")

    /// - Thread: [control]
    public init() {}

    /// - Thread: [control]
    public var format: ComponentFormat { .builtin }

    /// - Thread: [control]
    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        let description = Self.description
        let sampler = Component(
            description: description, name: "Sampler", manufacturerName: "AUHost", version: "1.0.0", format: .builtin,
            identifier: "builtin:Sampler", category: "Instrument",
            factory: { () throws(AudioUnitError) -> AudioUnit in SamplerUnit(description: description) })
        return ([sampler], [])
    }
}
