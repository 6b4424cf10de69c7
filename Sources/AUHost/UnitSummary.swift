import AUCore

/// One unit in `auhost list --json` and `auhost_units_json` (include/auhost.h).
/// - Thread: [any] (a plain value).
public struct UnitSummary: Encodable, Sendable {
    public var type: String
    public var subtype: String
    public var manufacturer: String
    public var name: String
    public var manufacturerName: String
    public var version: String
    public var format: String
    public var identifier: String
    public var category: String
    public var broken: String?
    /// Why `auhost validate` failed the unit (`list --validated`), or nil.
    public var validation: String?

    /// The summary of `component`, with the reason of its failed `validation` if any.
    /// - Thread: [any]
    public init(_ component: Component, validation: ProbeVerdict? = nil) {
        type = component.description.type.description
        subtype = component.description.subtype.description
        manufacturer = component.description.manufacturer.description
        name = component.name
        manufacturerName = component.manufacturerName
        version = component.version
        format = component.format.rawValue
        identifier = component.identifier
        category = component.category
        broken = component.brokenReason
        self.validation = validation?.reason
    }

    /// - Thread: [any]
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(subtype, forKey: .subtype)
        try container.encode(manufacturer, forKey: .manufacturer)
        try container.encode(name, forKey: .name)
        try container.encode(manufacturerName, forKey: .manufacturerName)
        try container.encode(version, forKey: .version)
        try container.encode(format, forKey: .format)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(category, forKey: .category)
        try container.encode(broken, forKey: .broken)
        try container.encode(validation, forKey: .validation)
    }

    enum CodingKeys: String, CodingKey {
        case type, subtype, manufacturer, name, manufacturerName, version, format, identifier, category, broken, validation
    }
}
