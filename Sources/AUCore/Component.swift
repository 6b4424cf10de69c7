/// Which backend a unit comes from.
/// - Thread: [any]
public enum ComponentFormat: String, Sendable, CaseIterable, Codable {
    /// An LV2 plugin, hosted through lilv.
    case lv2
    /// A native unit: a dynamic library built against the AUHost SDK.
    case native
    /// A unit built into AUHost.
    case builtin
}

/// A unit that can be instantiated (Core Audio's `AudioComponent`): its description,
/// names, where it comes from, and how to make an instance.
/// - Thread: [any] (an immutable value); ``instantiate()`` runs on a control thread.
public struct Component: Sendable {
    public var description: ComponentDescription
    public var name: String
    public var manufacturerName: String
    public var version: String
    public var format: ComponentFormat
    /// A stable identity within its format: the LV2 URI, the native library path and
    /// unit index, or the built-in unit's name.
    public var identifier: String
    /// A short classification (the LV2 class label, "Effect"…).
    public var category: String
    /// Host features the unit cannot run without (LV2 required features).
    public var requiredFeatures: [String]
    /// Why the unit is known not to work (from a probe), or nil.
    public var brokenReason: String?
    private let factory: @Sendable () throws(AudioUnitError) -> AudioUnit

    /// - Thread: [any]
    public init(
        description: ComponentDescription, name: String, manufacturerName: String, version: String,
        format: ComponentFormat, identifier: String, category: String = "", requiredFeatures: [String] = [],
        brokenReason: String? = nil, factory: @escaping @Sendable () throws(AudioUnitError) -> AudioUnit
    ) {
        self.description = description
        self.name = name
        self.manufacturerName = manufacturerName
        self.version = version
        self.format = format
        self.identifier = identifier
        self.category = category
        self.requiredFeatures = requiredFeatures
        self.brokenReason = brokenReason
        self.factory = factory
    }

    /// Makes a new, uninitialized instance (`AudioComponentInstanceNew`).
    /// - Thread: [control]
    public func instantiate() throws(AudioUnitError) -> AudioUnit {
        RenderThread.assertNotCurrent("Component.instantiate")
        return try factory()
    }

    /// This component, its instances made by `factory` instead (an isolator's, in child processes).
    /// - Thread: [any]
    public func withFactory(_ factory: @escaping @Sendable () throws(AudioUnitError) -> AudioUnit) -> Component {
        Component(
            description: description, name: name, manufacturerName: manufacturerName, version: version, format: format, identifier: identifier,
            category: category, requiredFeatures: requiredFeatures, brokenReason: brokenReason, factory: factory)
    }
}

/// A problem found while discovering units (a library that would not load, a bundle with
/// bad Turtle): what and where. The other units still load.
/// - Thread: [any]
public struct DiscoveryProblem: Sendable, CustomStringConvertible {
    public var format: ComponentFormat
    /// The file, bundle or URI concerned.
    public var location: String
    public var message: String
    /// - Thread: [any]
    public init(format: ComponentFormat, location: String, message: String) {
        self.format = format
        self.location = location
        self.message = message
    }
    /// - Thread: [any]
    public var description: String { "\(location): \(message)" }
}

/// A source of components: the LV2 world, the native-unit loader, the built-in units.
/// - Thread: [control]
public protocol ComponentProvider: Sendable {
    var format: ComponentFormat { get }
    /// Finds the components this backend offers, with any problems met on the way.
    func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem])
}
