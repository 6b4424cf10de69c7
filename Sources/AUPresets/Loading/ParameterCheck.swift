import AUCore

/// What is wrong with one parameter or property value: the kind and a message that says
/// what was expected against what was found.
/// - Thread: [any] (a plain value).
public struct ParameterIssue: Error, Sendable {
    public var kind: PresetProblem.Kind
    public var message: String
}

/// Checks a parameter key and value against a unit's ``ParameterInfo`` — the one place
/// both preset files and `--set` overrides go through, so they speak alike.
/// - Thread: [control]
enum ParameterCheck {
    /// The parameter a key names (its identifier: ``ParameterTable/info(forIdentifier:)``,
    /// else the one equal to it but for case) and the value to set, or what is wrong.
    static func resolve(key: String, value: PresetParameterValue, unit: AudioUnit) throws(ParameterIssue) -> ResolvedParameter {
        let infos = unit.parameters.infos
        let writable = infos.filter(\.isWritable).map(\.identifier)
        guard let info = unit.parameters.info(forIdentifier: key) ?? unit.parameters.info(forIdentifierIgnoringCase: key) else {
            if writable.isEmpty {
                throw ParameterIssue(kind: .unknownParameter, message: "unknown parameter; '\(unit.name)' has no parameters that can be set")
            }
            throw ParameterIssue(kind: .unknownParameter, message: "unknown parameter of '\(unit.name)'; expected \(choices(writable, near: key))")
        }
        guard info.isWritable else {
            throw ParameterIssue(
                kind: .readOnlyParameter,
                message: "'\(key)' is a read-only output of '\(unit.name)'; expected \(choices(writable, near: key))")
        }
        let number: Double
        switch value {
        case .named(let text):
            guard let strings = info.valueStrings, !strings.isEmpty else {
                throw ParameterIssue(kind: .wrongType, message: "expected a number for \(displayName(info)), found the string \(quoted(text))")
            }
            guard let indexed = info.value(named: text) else {
                throw ParameterIssue(kind: .unknownValueString, message: "\(quoted(text)) is not a value of \(displayName(info)); expected one of: \(listing(strings))")
            }
            return ResolvedParameter(key: key, info: info, value: indexed)
        case .number(let given):
            number = given
        }
        guard number.isFinite else {
            throw ParameterIssue(kind: .valueOutOfRange, message: "expected a finite number for \(displayName(info)), found \(number)")
        }
        let minimum = decimalDouble(info.minValue), maximum = decimalDouble(info.maxValue)
        if number < minimum || number < Double(info.minValue) {
            throw ParameterIssue(
                kind: .valueOutOfRange,
                message: "\(formatNumber(number)) is below the minimum \(formatNumber(info.minValue)) of \(displayName(info)); expected \(range(info))")
        }
        if number > maximum || number > Double(info.maxValue) {
            throw ParameterIssue(
                kind: .valueOutOfRange,
                message: "\(formatNumber(number)) is above the maximum \(formatNumber(info.maxValue)) of \(displayName(info)); expected \(range(info))")
        }
        let isWhole = info.unit == .indexed || info.unit == .boolean || info.valueStrings != nil
        if isWhole && number != number.rounded() {
            throw ParameterIssue(
                kind: .valueOutOfRange, message: "\(formatNumber(number)) is not a whole number; \(displayName(info)) expects \(range(info))")
        }
        // Clamp what Float rounding may push a hair past a bound that the Double respected.
        let value = min(max(Float(number), info.minValue), info.maxValue)
        return ResolvedParameter(key: key, info: info, value: value)
    }

    /// `'Gain (dB)'`: the name, with the unit's symbol when the name does not show it.
    static func displayName(_ info: ParameterInfo) -> String {
        let symbol = info.unit.symbol
        if symbol.isEmpty || symbol == ":1" || info.name.contains("(\(symbol))") { return "'\(info.name)'" }
        return "'\(info.name) (\(symbol))'"
    }

    /// `-24...24 dB`, or for an indexed parameter `0...2 or one of: Clean, Warm, Hot`.
    static func range(_ info: ParameterInfo) -> String {
        var text = "\(formatNumber(info.minValue))...\(formatNumber(info.maxValue))"
        let symbol = info.unit.symbol
        if !symbol.isEmpty { text += symbol == ":1" ? " (a ratio)" : " \(symbol)" }
        if let strings = info.valueStrings, !strings.isEmpty { text += " or one of: \(listing(strings))" }
        return text
    }
}
