import AUCore

/// The `snapshots` list: objects with a `name`, `parameters` (`"NODE.PARAM"`: a number or
/// a value string) and an optional `ramp` in milliseconds. Names are unique.
/// - Thread: [control]
extension PresetDecoder {
    mutating func decodeSnapshots(_ list: JSONNode) -> [PresetSnapshot] {
        let path = JSONPath.root.key("snapshots")
        guard let elements = array(list, path, what: "an array of snapshots ({\"name\": …, \"parameters\": {\"node.param\": value}})") else { return [] }
        var snapshots: [PresetSnapshot] = []
        for (index, element) in elements.enumerated() {
            let entryPath = path.index(index)
            guard let members = object(element, entryPath, keys: PresetSnapshot.keys, what: "a snapshot object") else { continue }
            let name = required(members, "name", at: entryPath, what: "the snapshot's name").flatMap { string($0, entryPath.key("name"), what: "a name") }
            if let name, snapshots.contains(where: { $0.name == name }) {
                problems.add(.invalidValue, entryPath.key("name"), "snapshot \(quoted(name)) is named twice; expected each name once")
                continue
            }
            var parameters: [PresetParameter] = []
            if let node = required(members, "parameters", at: entryPath, what: "an object of \"NODE.PARAM\": value") {
                if case .object(let entries) = node.value {
                    for entry in entries {
                        switch entry.value.value {
                        case .number(let number): parameters.append(PresetParameter(key: entry.key, value: .number(number)))
                        case .string(let text): parameters.append(PresetParameter(key: entry.key, value: .named(text)))
                        default: problems.add(.wrongType, entryPath.key("parameters").key(entry.key), "expected a number or a value string, found \(entry.value.foundDescription)")
                        }
                    }
                } else {
                    problems.add(.wrongType, entryPath.key("parameters"), "expected an object of \"NODE.PARAM\": value, found \(node.foundDescription)")
                }
            }
            var ramp: Double?
            if let node = members["ramp"], let value = number(node, entryPath.key("ramp"), what: "milliseconds") {
                if value.isFinite, (0...10_000).contains(value) { ramp = value } else {
                    problems.add(.invalidValue, entryPath.key("ramp"), "expected milliseconds in 0...10000, found \(formatNumber(value))")
                }
            }
            if let name { snapshots.append(PresetSnapshot(name: name, parameters: parameters, ramp: ramp)) }
        }
        return snapshots
    }
}
