import AUCore

/// A `--set NODE.PARAM=VALUE` override: a parameter value given on the command line that
/// replaces (or adds to) the preset's. VALUE is a number in the parameter's own unit, or
/// one of an indexed parameter's value strings; text that reads as a number is a number.
/// Node ids hold no `.`, so the first `.` splits NODE from PARAM (PARAM may contain dots).
///
/// Problems are reported like a file's, from the source `--set`:
/// `--set: comp.threshold: 40 is above the maximum 0 of 'Threshold (dB)'; expected -60...0 dB`
/// - Thread: [any] (a plain value).
public struct ParameterOverride: Hashable, Sendable, CustomStringConvertible {
    /// The source name problems with overrides are reported under.
    public static let source = "--set"

    public var node: String
    public var parameter: String
    public var value: PresetParameterValue

    /// - Thread: [any]
    public init(node: String, parameter: String, value: PresetParameterValue) {
        self.node = node
        self.parameter = parameter
        self.value = value
    }

    /// Parses `NODE.PARAM=VALUE`.
    /// - Thread: [any]
    public init(parsing text: String) throws(PresetError) {
        var problems: [PresetProblem] = []
        guard let override = Self.parse(text, problems: &problems) else { throw PresetError(problems) }
        self = override
    }

    /// Parses every `--set` argument, reporting every malformed one at once.
    /// - Thread: [any]
    public static func parse(_ texts: [String]) throws(PresetError) -> [ParameterOverride] {
        var problems: [PresetProblem] = []
        let overrides = texts.compactMap { parse($0, problems: &problems) }
        if !problems.isEmpty { throw PresetError(problems) }
        return overrides
    }

    /// `NODE.PARAM`: the path a problem with this override is reported at.
    /// - Thread: [any]
    public var target: String { "\(node).\(parameter)" }

    /// `NODE.PARAM=VALUE`, as it would be typed.
    /// - Thread: [any]
    public var description: String {
        switch value {
        case .number(let number): "\(target)=\(formatNumber(number))"
        case .named(let name): "\(target)=\(name)"
        }
    }

    /// A problem with an override, reported at `path` (the argument, or NODE.PARAM).
    static func problem(_ kind: PresetProblem.Kind, _ path: String, _ message: String) -> PresetProblem {
        PresetProblem(kind, file: source, path: path, message: message)
    }

    private static func parse(_ text: String, problems: inout [PresetProblem]) -> ParameterOverride? {
        let shape = "expected NODE.PARAM=VALUE (such as comp.threshold=-18)"
        func fail(_ message: String) -> ParameterOverride? {
            problems.append(problem(.malformedOverride, text, message))
            return nil
        }
        guard let equals = text.firstIndex(of: "=") else {
            return fail("\(shape), found no '='")
        }
        let target = text[..<equals]
        let valueText = String(text[text.index(after: equals)...])
        guard let dot = target.firstIndex(of: ".") else {
            return fail("\(shape), found no '.' between the node and the parameter")
        }
        let node = String(target[..<dot])
        let parameter = String(target[target.index(after: dot)...])
        guard !node.isEmpty else {
            return fail("\(shape), found no node id before '.'")
        }
        guard !parameter.isEmpty else {
            return fail("\(shape), found no parameter after '.'")
        }
        guard !valueText.isEmpty else {
            return fail("\(shape), found no value after '='")
        }
        if let number = Double(valueText) {
            guard number.isFinite else {
                return fail("expected a finite number or a value string, found \(quoted(valueText))")
            }
            return ParameterOverride(node: node, parameter: parameter, value: .number(number))
        }
        return ParameterOverride(node: node, parameter: parameter, value: .named(valueText))
    }

    /// Checks the override against a unit (the live `set` command's use), with the same
    /// messages a preset file gets.
    /// - Thread: [control]
    public func resolve(against unit: AudioUnit) throws(PresetError) -> ResolvedParameter {
        do {
            return try ParameterCheck.resolve(key: parameter, value: value, unit: unit)
        } catch {
            throw PresetError([Self.problem(error.kind, target, error.message)])
        }
    }
}
