import AUCore

/// The `midiMap` list: objects with one source (`cc`, `note` 0–127, or `"pitchBend": true`),
/// `parameter` (`"NODE.PARAM"`), and optional `channel` (1–16), `min`, `max`, `curve` and
/// `smoothing` (milliseconds). Whether the node and parameter exist is the loader's check.
/// - Thread: [control]
extension PresetDecoder {
    mutating func decodeMIDIMap(_ list: JSONNode) -> ([PresetMIDIMapping], [JSONPath]) {
        let path = JSONPath.root.key("midiMap")
        guard let elements = array(list, path, what: "an array of MIDI mappings ({\"cc\": 7, \"parameter\": \"node.param\"})") else { return ([], []) }
        var mappings: [PresetMIDIMapping] = []
        var paths: [JSONPath] = []
        for (index, element) in elements.enumerated() {
            let entryPath = path.index(index)
            guard let members = object(element, entryPath, keys: PresetMIDIMapping.keys, what: "a MIDI mapping object") else { continue }
            let given = ["cc", "note", "pitchBend"].filter { members[$0] != nil }
            guard given.count == 1, let sourceKey = given.first else {
                let found = given.isEmpty ? "none" : given.joined(separator: " and ")
                problems.add(.invalidValue, entryPath, "expected one source, \"cc\": N, \"note\": N or \"pitchBend\": true; found \(found)")
                continue
            }
            var source: PresetMIDIMapping.Source?
            switch sourceKey {
            case "pitchBend":
                if case .bool(true) = members["pitchBend"]!.value {
                    source = .pitchBend
                } else {
                    problems.add(.invalidValue, entryPath.key("pitchBend"), "expected true, found \(members["pitchBend"]!.foundDescription)")
                }
            default:
                if let number = wholeNumber(members[sourceKey]!, entryPath.key(sourceKey), in: 0...127, what: sourceKey == "cc" ? "a controller number" : "a note number") {
                    source = sourceKey == "cc" ? .controlChange(number) : .note(number)
                }
            }
            let channel = members["channel"].flatMap { wholeNumber($0, entryPath.key("channel"), in: 1...16, what: "a MIDI channel") }
            let parameter = required(members, "parameter", at: entryPath, what: "\"NODE.PARAM\", the parameter it moves")
                .flatMap { string($0, entryPath.key("parameter"), what: "\"NODE.PARAM\"") }
            if let parameter, !parameter.contains(".") {
                problems.add(.invalidValue, entryPath.key("parameter"), "expected \"NODE.PARAM\" (a node id, a dot, a parameter), found \(quoted(parameter))")
                continue
            }
            let minimum = members["min"].flatMap { number($0, entryPath.key("min"), what: "the value at the control's lowest position") }
            let maximum = members["max"].flatMap { number($0, entryPath.key("max"), what: "the value at the control's highest position") }
            var curve = PresetMIDIMapping.Curve.linear
            if let node = members["curve"], let text = string(node, entryPath.key("curve"), what: "a curve") {
                if let known = PresetMIDIMapping.Curve(rawValue: text) {
                    curve = known
                } else {
                    problems.add(.invalidValue, entryPath.key("curve"), "expected one of: \(listing(PresetMIDIMapping.Curve.allCases.map(\.rawValue))), found \(quoted(text))")
                }
            }
            var smoothing: Double?
            if let node = members["smoothing"], let value = number(node, entryPath.key("smoothing"), what: "milliseconds") {
                if value.isFinite, (0...10_000).contains(value) {
                    smoothing = value
                } else {
                    problems.add(.invalidValue, entryPath.key("smoothing"), "expected milliseconds in 0...10000, found \(formatNumber(value))")
                }
            }
            if let source, let parameter {
                mappings.append(PresetMIDIMapping(
                    source: source, channel: channel, parameter: parameter, minimum: minimum, maximum: maximum, curve: curve, smoothing: smoothing))
                paths.append(entryPath)
            }
        }
        return (mappings, paths)
    }

    /// A whole number in `range`, or nil after reporting what was found.
    private mutating func wholeNumber(_ node: JSONNode, _ path: JSONPath, in range: ClosedRange<Int>, what: String) -> Int? {
        guard let value = number(node, path, what: "\(what) in \(range.lowerBound)...\(range.upperBound)") else { return nil }
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            problems.add(.invalidValue, path, "expected \(what) in \(range.lowerBound)...\(range.upperBound), found \(formatNumber(value))")
            return nil
        }
        return Int(value)
    }
}
