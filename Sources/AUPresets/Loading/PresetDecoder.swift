import AUCore

import Foundation

/// Reads the JSON of a version 1 chain preset into a ``ChainPreset``, reporting every
/// problem of form: wrong JSON types, unknown and duplicate keys, missing required keys,
/// an unsupported version, state that is not base64, a connection end that is not
/// `"node:bus"`. What it cannot read it leaves out and marks, so the checks against the
/// registry that follow do not report it again.
/// - Thread: [control]
struct PresetDecoder {
    var problems: ProblemCollector

    init(file: String) { problems = ProblemCollector(file: file) }

    /// Parses and decodes; nil when nothing more can be checked (not JSON, not an object,
    /// another schema version).
    mutating func decode(_ bytes: [UInt8]) -> DecodedPreset? {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            problems.add(.malformedJSON, error.path, "not valid JSON: \(error.message)", at: error.position)
            return nil
        }
        problems.recordPositions(of: root)
        return decode(root)
    }

    private mutating func decode(_ root: JSONNode) -> DecodedPreset? {
        // Another version may have other keys: say only that, before judging any key.
        if case .object(let raw) = root.value, let version = raw.first(where: { $0.key == "auhost" })?.value,
           case .number(let number) = version.value, number != Double(ChainPreset.schemaVersion) {
            problems.add(.unsupportedVersion, JSONPath.root.key("auhost"),
                         "unsupported schema version \(formatNumber(number)); expected \(ChainPreset.schemaVersion) (this AUHost reads version \(ChainPreset.schemaVersion) files)")
            return nil
        }
        guard let members = object(root, .root, keys: ChainPreset.keys, what: "an object with \"auhost\": 1, \"name\", \"nodes\" and \"chain\" or \"connections\"") else {
            return nil
        }
        let path = JSONPath.root
        if let version = members["auhost"] {
            if case .number = version.value {} else {
                problems.add(.wrongType, path.key("auhost"), "expected the schema version \(ChainPreset.schemaVersion), found \(version.foundDescription)")
            }
        } else {
            problems.add(.missingKey, path.key("auhost"), "missing required key; expected \"auhost\": \(ChainPreset.schemaVersion), the schema version")
        }
        return decodeBody(members)
    }

    private mutating func decodeBody(_ members: [String: JSONNode]) -> DecodedPreset {
        let path = JSONPath.root
        let name = required(members, "name", at: path, what: "the chain's name").flatMap { string($0, path.key("name")) } ?? ""
        let description = members["description"].flatMap { string($0, path.key("description")) }
        let sampleRate = members["sampleRate"].flatMap { number($0, path.key("sampleRate"), what: "a sample rate in Hz") }

        var nodes: [PresetNode] = []
        var isNodeUsable: [Bool] = []
        var hasAllNodeIDs = true
        if let list = required(members, "nodes", at: path, what: "an array of nodes").flatMap({ array($0, path.key("nodes"), what: "an array of nodes") }) {
            for (index, element) in list.enumerated() {
                let (node, usable, hasID) = decodeNode(element, path.key("nodes").index(index))
                nodes.append(node)
                isNodeUsable.append(usable)
                hasAllNodeIDs = hasAllNodeIDs && hasID
            }
        } else {
            hasAllNodeIDs = false
        }

        let countBefore = problems.problems.count
        var routing = PresetRouting.chain([])
        var routingPaths: [JSONPath] = []
        switch (members["chain"], members["connections"]) {
        case (let chain?, let connections?):
            problems.add(.invalidValue, path.key("connections"),
                         "a file has chain or connections, not both; expected one of them (chain is at line \(chain.position.line))",
                         at: connections.position)
            (routing, routingPaths) = decodeChain(chain)
        case (let chain?, nil):
            (routing, routingPaths) = decodeChain(chain)
        case (nil, let connections?):
            (routing, routingPaths) = decodeConnections(connections)
        case (nil, nil):
            problems.add(.missingKey, path.key("chain"), "missing required key; expected \"chain\" (node ids in order) or \"connections\" (pairs of \"node:bus\")")
        }
        let isRoutingComplete = problems.problems.count == countBefore
        let (midi, midiPaths) = members["midi"].map { decodeMIDI($0) } ?? ([], [])
        let tracks = members["tracks"].map { decodeTracks($0) } ?? [:]
        let (midiMap, midiMapPaths) = members["midiMap"].map { decodeMIDIMap($0) } ?? ([], [])
        let snapshots = members["snapshots"].map { decodeSnapshots($0) } ?? []
        var autoconvert: Bool?
        if let member = members["autoconvert"] {
            if case .bool(let flag) = member.value { autoconvert = flag } else {
                problems.add(.wrongType, path.key("autoconvert"), "expected true or false, found \(member.foundDescription)")
            }
        }
        let preset = ChainPreset(
            name: name, description: description, sampleRate: sampleRate, nodes: nodes, routing: routing, midi: midi, tracks: tracks,
            autoconvert: autoconvert, midiMap: midiMap, snapshots: snapshots)
        var decoded = DecodedPreset(
            preset: preset, isNodeUsable: isNodeUsable, hasAllNodeIDs: hasAllNodeIDs, routingPaths: routingPaths,
            isRoutingComplete: isRoutingComplete, midiPaths: midiPaths)
        decoded.midiMapPaths = midiMapPaths
        return decoded
    }

    /// The `tracks` object: track numbers from 1 (`"1"`, `"2"`) to node ids or `"output"`.
    private mutating func decodeTracks(_ object: JSONNode) -> [Int: String] {
        let path = JSONPath.root.key("tracks")
        guard case .object(let members) = object.value else {
            problems.add(.wrongType, path, "expected an object of track numbers to node ids ({\"1\": \"piano\"}), found \(object.foundDescription)")
            return [:]
        }
        var tracks: [Int: String] = [:]
        for member in members {
            let entryPath = path.key(member.key)
            guard member.key.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(member.key), number >= 1 else {
                problems.add(.invalidValue, entryPath, "expected a track number from 1 (as auhost midi info counts them), found \(quoted(member.key))")
                continue
            }
            guard tracks[number] == nil else {
                problems.add(.invalidValue, entryPath, "track \(number) is mapped twice; expected each track once")
                continue
            }
            if let id = string(member.value, entryPath, what: "a node id that takes MIDI, or \"output\"") { tracks[number] = id }
        }
        return tracks
    }

    /// The `midi` list: `["from", "to"]` pairs, or objects with `from`, `to`, and optional
    /// `channels` (`"1-8"`, `"10"`, `"1,3,5-7"`) and `channel` (1–16).
    private mutating func decodeMIDI(_ list: JSONNode) -> ([PresetMIDIConnection], [JSONPath]) {
        let path = JSONPath.root.key("midi")
        let expected = "an array of MIDI connections ([\"from\", \"to\"] or {\"from\", \"to\", \"channels\", \"channel\"})"
        guard let elements = array(list, path, what: expected) else { return ([], []) }
        var connections: [PresetMIDIConnection] = []
        var paths: [JSONPath] = []
        for (index, element) in elements.enumerated() {
            let entryPath = path.index(index)
            var connection: PresetMIDIConnection?
            switch element.value {
            case .array(let pair):
                guard pair.count == 2 else {
                    problems.add(.badConnection, entryPath, "expected a pair [\"from\", \"to\"], found \(pair.count) element\(pair.count == 1 ? "" : "s")")
                    continue
                }
                if let from = string(pair[0], entryPath.index(0), what: "a node id or \"input\""),
                   let to = string(pair[1], entryPath.index(1), what: "a node id or \"output\"") {
                    connection = PresetMIDIConnection(from: from, to: to)
                }
            case .object:
                guard let members = object(element, entryPath, keys: ["from", "to", "channels", "channel"], what: "a MIDI connection") else { continue }
                let from = required(members, "from", at: entryPath, what: "a node id or \"input\"").flatMap { string($0, entryPath.key("from"), what: "a node id or \"input\"") }
                let to = required(members, "to", at: entryPath, what: "a node id or \"output\"").flatMap { string($0, entryPath.key("to"), what: "a node id or \"output\"") }
                let channels = members["channels"].flatMap { string($0, entryPath.key("channels"), what: "channels such as \"1-8\" or \"10\"") }
                var channel: Int?
                if let node = members["channel"], let number = number(node, entryPath.key("channel"), what: "a MIDI channel in 1...16") {
                    if number == number.rounded(), (1...16).contains(number) {
                        channel = Int(number)
                    } else {
                        problems.add(.invalidValue, entryPath.key("channel"), "expected a MIDI channel in 1...16, found \(formatNumber(number))")
                    }
                }
                if let channels, PresetMIDIConnection(from: "", to: "", channels: channels).channelBits == nil {
                    problems.add(.invalidValue, entryPath.key("channels"), "expected channels in 1...16 such as \"1-8\", \"10\" or \"1,3,5-7\", found \(quoted(channels))")
                    continue
                }
                if let from, let to { connection = PresetMIDIConnection(from: from, to: to, channels: channels, channel: channel) }
            default:
                problems.add(.wrongType, entryPath, "expected a MIDI connection ([\"from\", \"to\"] or an object), found \(element.foundDescription)")
            }
            if let connection {
                connections.append(connection)
                paths.append(entryPath)
            }
        }
        return (connections, paths)
    }

    /// A node, whether it can be checked further, and whether its id was read.
    private mutating func decodeNode(_ element: JSONNode, _ path: JSONPath) -> (PresetNode, Bool, Bool) {
        guard let members = object(element, path, keys: PresetNode.keys, what: "a node object with \"id\" and \"unit\"") else {
            return (PresetNode(id: "", unit: ""), false, false)
        }
        let id = required(members, "id", at: path, what: "the node's id").flatMap { string($0, path.key("id"), what: "a node id") }
        let unit = required(members, "unit", at: path, what: "a unit reference (type:subtype:manufacturer, lv2:URI or a name)")
            .flatMap { string($0, path.key("unit"), what: "a unit reference") }
        var node = PresetNode(id: id ?? "", unit: unit ?? "")
        let usable = id != nil && unit != nil
        if let parameters = members["parameters"] {
            let parametersPath = path.key("parameters")
            if case .object(let entries) = parameters.value {
                var seen: Set<String> = []
                for entry in entries {
                    let entryPath = parametersPath.key(entry.key)
                    guard seen.insert(entry.key).inserted else {
                        problems.add(.duplicateKey, entryPath, "duplicate key; expected each parameter once", at: entry.keyPosition)
                        continue
                    }
                    switch entry.value.value {
                    case .number(let number): node.parameters.append(PresetParameter(key: entry.key, value: .number(number)))
                    case .string(let text): node.parameters.append(PresetParameter(key: entry.key, value: .named(text)))
                    default:
                        problems.add(.wrongType, entryPath, "expected a number or a value string, found \(entry.value.foundDescription)")
                    }
                }
            } else {
                problems.add(.wrongType, parametersPath, "expected an object of parameter values keyed by symbol or identifier, found \(parameters.foundDescription)")
            }
        }
        for key in PresetNode.propertyKeys {
            guard let member = members[key] else { continue }
            guard node.value(of: key) == nil else {
                problems.add(.duplicateKey, path.key(key), "\(key) is given here and in parameters; expected it once")
                continue
            }
            switch member.value {
            case .number(let number): node.parameters.append(PresetParameter(key: key, value: .number(number)))
            case .string(let text): node.parameters.append(PresetParameter(key: key, value: .named(text)))
            default: problems.add(.wrongType, path.key(key), "expected \(key == "soundbank" ? "a sound bank file (or gm)" : "a whole number"), found \(member.foundDescription)")
            }
        }
        node.preset = members["preset"].flatMap { string($0, path.key("preset"), what: "a factory preset name") }
        if let bypass = members["bypass"] {
            if case .bool(let flag) = bypass.value {
                node.bypass = flag
            } else {
                problems.add(.wrongType, path.key("bypass"), "expected true or false, found \(bypass.foundDescription)")
            }
        }
        if let isolation = members["isolation"], let text = string(isolation, path.key("isolation"), what: "one of \(UnitIsolation.choices)") {
            if let mode = UnitIsolation(rawValue: text) {
                node.isolation = mode
            } else {
                problems.add(.invalidValue, path.key("isolation"), "expected one of \(UnitIsolation.choices), found \(isolation.foundDescription)")
            }
        }
        if let state = members["state"], let text = string(state, path.key("state"), what: "base64 ClassInfo data") {
            if let data = Data(base64Encoded: text) {
                node.state = data
            } else {
                problems.add(.badState, path.key("state"), "expected base64 ClassInfo data, found \(state.foundDescription), which is not base64")
            }
        }
        return (node, usable, id != nil)
    }

    private mutating func decodeChain(_ chain: JSONNode) -> (PresetRouting, [JSONPath]) {
        let path = JSONPath.root.key("chain")
        guard let elements = array(chain, path, what: "an array of node ids") else { return (.chain([]), []) }
        var ids: [String] = []
        var paths: [JSONPath] = []
        for (index, element) in elements.enumerated() {
            if let id = string(element, path.index(index), what: "a node id") {
                ids.append(id)
                paths.append(path.index(index))
            }
        }
        return (.chain(ids), paths)
    }

    private mutating func decodeConnections(_ list: JSONNode) -> (PresetRouting, [JSONPath]) {
        let path = JSONPath.root.key("connections")
        guard let elements = array(list, path, what: "an array of [\"source:bus\", \"destination:bus\"] pairs") else {
            return (.connections([]), [])
        }
        var connections: [PresetConnection] = []
        var paths: [JSONPath] = []
        for (index, element) in elements.enumerated() {
            let pairPath = path.index(index)
            guard let pair = array(element, pairPath, what: "a pair [\"source:bus\", \"destination:bus\"]") else { continue }
            guard pair.count == 2 else {
                problems.add(.badConnection, pairPath, "expected a pair [\"source:bus\", \"destination:bus\"], found \(pair.count) element\(pair.count == 1 ? "" : "s")")
                continue
            }
            let ends = pair.enumerated().map { offset, end in endpoint(end, pairPath.index(offset)) }
            if let source = ends[0], let destination = ends[1] {
                connections.append(PresetConnection(source, destination))
                paths.append(pairPath)
            }
        }
        return (.connections(connections), paths)
    }

    private mutating func endpoint(_ node: JSONNode, _ path: JSONPath) -> PresetEndpoint? {
        guard let text = string(node, path, what: "\"node:bus\"") else { return nil }
        guard let endpoint = PresetEndpoint(parsing: text) else {
            problems.add(.badConnection, path, "expected \"node:bus\" (such as \"eq:0\", \"input:0\" or \"output:0\"), found \(quoted(text))")
            return nil
        }
        return endpoint
    }

    // MARK: - Typed reads that report what they found

    /// The members of an object by key, after reporting duplicate and unknown keys.
    mutating func object(_ node: JSONNode, _ path: JSONPath, keys: [String], what: String) -> [String: JSONNode]? {
        guard case .object(let members) = node.value else {
            problems.add(.wrongType, path, "expected \(what), found \(node.foundDescription)")
            return nil
        }
        var byKey: [String: JSONNode] = [:]
        for member in members {
            let memberPath = path.key(member.key)
            if byKey[member.key] != nil {
                problems.add(.duplicateKey, memberPath, "duplicate key; expected each key once", at: member.keyPosition)
            } else if !keys.contains(member.key) {
                problems.add(.unknownKey, memberPath, "unknown key; expected one of: \(listing(keys))", at: member.keyPosition)
            } else {
                byKey[member.key] = member.value
            }
        }
        return byKey
    }

    /// The member, or nil after reporting it missing.
    mutating func required(_ members: [String: JSONNode], _ key: String, at path: JSONPath, what: String) -> JSONNode? {
        guard let node = members[key] else {
            problems.add(.missingKey, path.key(key), "missing required key; expected \(what)")
            return nil
        }
        return node
    }

    mutating func string(_ node: JSONNode, _ path: JSONPath, what: String = "a string") -> String? {
        guard case .string(let text) = node.value else {
            problems.add(.wrongType, path, "expected \(what), found \(node.foundDescription)")
            return nil
        }
        return text
    }

    mutating func number(_ node: JSONNode, _ path: JSONPath, what: String) -> Double? {
        guard case .number(let number) = node.value else {
            problems.add(.wrongType, path, "expected \(what), found \(node.foundDescription)")
            return nil
        }
        return number
    }

    mutating func array(_ node: JSONNode, _ path: JSONPath, what: String) -> [JSONNode]? {
        guard case .array(let elements) = node.value else {
            problems.add(.wrongType, path, "expected \(what), found \(node.foundDescription)")
            return nil
        }
        return elements
    }
}
