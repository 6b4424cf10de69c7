import AUCore

/// The units built into AUHost (manufacturer `AUHs`), as a component provider.
/// - Thread: [control]
public struct BuiltinUnits: ComponentProvider {
    public static let manufacturer: FourCharCode = "AUHs"
    public static let manufacturerName = "AUHost"
    public static let version = "1.0.0"

    /// - Thread: [control]
    public init() {}

    /// - Thread: [control]
    public var format: ComponentFormat { .builtin }

    /// One entry per built-in unit: description, name, category and factory.
    static let catalog: [(subtype: FourCharCode, type: FourCharCode, name: String, category: String, make: @Sendable (ComponentDescription) -> AudioUnit)] = [
        ("splt", ComponentType.effect, "Splitter", "Utility", { SplitterUnit(description: $0) }),
        ("mcmx", ComponentType.mixer, "Multichannel Mixer", "Mixer", { MultichannelMixerUnit(description: $0) }),
        ("ipeq", ComponentType.effect, "iPod EQ", "EQ", { GraphicEQUnit(description: $0) }),
        ("conv", ComponentType.formatConverter, "Format Converter", "Converter", { FormatConverterUnit(description: $0) }),
        ("genr", ComponentType.output, "Generic Output", "Output", { GenericOutputUnit(description: $0) }),
    ]

    /// The built-in unit of `subtype` made under another description (Apple's, for
    /// AUAppleUnits), so that the instance says what it was made as; nil for an unknown subtype.
    /// - Thread: [control]
    public static func make(_ subtype: FourCharCode, as description: ComponentDescription) -> AudioUnit? {
        catalog.first { $0.subtype == subtype }?.make(description)
    }

    /// - Thread: [control]
    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        let components = Self.catalog.map { entry in
            let description = ComponentDescription(type: entry.type, subtype: entry.subtype, manufacturer: Self.manufacturer)
            let make = entry.make
            return Component(
                description: description, name: entry.name, manufacturerName: Self.manufacturerName, version: Self.version,
                format: .builtin, identifier: "builtin:\(entry.name)", category: entry.category,
                factory: { () throws(AudioUnitError) -> AudioUnit in make(description) })
        }
        return (components, [])
    }
}
