import AUCore
import Foundation

/// A property parameter's value checked against the unit (``PropertyParameterInfo``): a
/// path resolved against a folder (a preset's, or the current directory for `--set`) or
/// one of its named files (a sampler's `gm`); a string, a whole number, a number or a
/// Boolean as the property's type says.
/// - Thread: [any] (a plain value).
public struct ResolvedProperty: Hashable, Sendable {
    public var identifier: String
    public var value: PropertyParameterValue

    /// Sets the value on a unit.
    /// - Thread: [control]
    public func apply(to unit: AudioUnit) throws(AudioUnitError) {
        try unit.setPropertyParameter(identifier, to: value)
    }
}

/// Resolves keys that name a unit's property parameters, the one place presets, `--set`
/// and the live `set` and `load` go through.
/// - Thread: [control]
public enum PropertyCheck {
    /// The property `key` names on `unit` (its identifier, or the one equal to it but for
    /// case) and the value to set (paths against `folder`), nil when `key` names no
    /// property of the unit; throws what is wrong with the value.
    /// - Thread: [control]
    public static func resolve(key: String, value: PresetParameterValue, unit: AudioUnit, folder: URL) throws(ParameterIssue) -> ResolvedProperty? {
        let sameButCase = unit.propertyParameters.filter { $0.identifier.caseInsensitiveCompare(key) == .orderedSame }
        guard let info = unit.propertyParameters.first(where: { $0.identifier == key }) ?? (sameButCase.count == 1 ? sameButCase.first : nil) else { return nil }
        guard info.isWritable else {
            throw ParameterIssue(kind: .readOnlyParameter, message: "'\(key)' is a property '\(unit.name)' only reports; it cannot be set")
        }
        let resolved: PropertyParameterValue?
        switch (info.valueType, value) {
        case (.path, .named(let text)):
            resolved = .path(info.namedPaths[text] ?? URL(fileURLWithPath: text, relativeTo: folder).standardizedFileURL.path)
        case (.int, .number(let number)) where number == number.rounded() && abs(number) < 1e15:
            resolved = .int(Int(number))
        case (.float, .number(let number)) where number.isFinite:
            resolved = .float(number)
        case (_, .named(let text)):
            resolved = PropertyParameterValue(parsing: text, as: info.valueType)
        case (.string, .number(let number)):
            resolved = .string(formatNumber(number))
        default:
            resolved = nil
        }
        guard let resolved else {
            throw ParameterIssue(kind: .wrongType, message: "expected \(expectation(info)) for '\(info.name)', found \(value)")
        }
        return ResolvedProperty(identifier: info.identifier, value: resolved)
    }

    /// Where a file named on the command line or the command channel is found from.
    /// - Thread: [control]
    public static var currentDirectory: URL { URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true) }

    /// What a value of `info`'s type looks like, for messages.
    static func expectation(_ info: PropertyParameterInfo) -> String {
        switch info.valueType {
        case .path: "a file path" + (info.namedPaths.isEmpty ? "" : " or \(listing(info.namedPaths.keys.sorted()))")
        case .string: "a string"
        case .int: "a whole number"
        case .float: "a number"
        case .bool: "true or false"
        }
    }

    /// A file value back as a preset writes it: a number for numbers, else its text.
    /// - Thread: [any]
    public static func presetValue(_ value: PropertyParameterValue) -> PresetParameterValue {
        switch value {
        case .int(let number): .number(Double(number))
        case .float(let number): .number(number)
        case .path, .string, .bool: .named(value.description)
        }
    }
}
