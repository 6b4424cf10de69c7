import AUCore

/// A plugin's patch properties (`patch:writable`, `patch:readable`) as the unit's property
/// parameters, read once when the unit is created. A property whose range is no atom type
/// the host can send (`atom:Vector`…) is left out.
/// - Thread: [any] (a plain value); made on the control thread.
struct LV2PatchProperties: Sendable {
    /// One property: what the unit lists, its URID, and the atom type its value travels as.
    struct Entry: Sendable {
        var info: PropertyParameterInfo
        var urid: UInt32
        var atomType: UInt32
        var defaultValue: PropertyParameterValue?
    }

    let entries: [Entry]

    /// The atom types a property's range may be, with the value type each becomes.
    static let ranges: [(uri: String, type: PropertyParameterInfo.ValueType)] = [
        (LV2URI.atomPath, .path), (LV2URI.atomString, .string), (LV2URI.atomInt, .int), (LV2URI.atomLong, .int),
        (LV2URI.atomFloat, .float), (LV2URI.atomDouble, .float), (LV2URI.atomBool, .bool),
    ]

    /// Identifiers are the URI's fragment, else its last path component; a clash gets
    /// `_2`, `_3`… in the plugin's order.
    init(_ descriptions: [LV2PropertyDescription], urids: URIDMap) {
        var entries: [Entry] = []
        var taken: Set<String> = []
        for description in descriptions {
            guard let range = description.range, let type = Self.ranges.first(where: { $0.uri == range })?.type else { continue }
            let base = Self.identifier(of: description.uri)
            var identifier = base
            var number = 2
            while taken.contains(identifier) {
                identifier = "\(base)_\(number)"
                number += 1
            }
            taken.insert(identifier)
            let info = PropertyParameterInfo(
                identifier: identifier, name: description.label ?? identifier, uri: description.uri, valueType: type,
                isWritable: description.isWritable)
            entries.append(Entry(
                info: info, urid: urids.map(description.uri), atomType: urids.map(range),
                defaultValue: description.defaultValue.flatMap { PropertyParameterValue(parsing: $0, as: type) }))
        }
        self.entries = entries
    }

    /// The entry with `identifier`.
    func entry(_ identifier: String) -> Entry? { entries.first { $0.info.identifier == identifier } }

    /// The entry whose property has the URID `urid`.
    func entry(urid: UInt32) -> Entry? { entries.first { $0.urid == urid } }

    /// `http://host/plugin#ir` → `ir`; `http://host/plugin/ir` → `ir`.
    static func identifier(of uri: String) -> String {
        if let hash = uri.lastIndex(of: "#"), uri.index(after: hash) < uri.endIndex { return String(uri[uri.index(after: hash)...]) }
        let trimmed = uri.hasSuffix("/") ? String(uri.dropLast()) : uri
        return trimmed.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? uri
    }
}
