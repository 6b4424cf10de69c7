import AUCore
import Foundation

/// Writes chain presets: the JSON text in one stable layout (keys in schema order, a
/// node's parameters in their own order, two-space indentation, a final newline), and
/// files written atomically that never replace an existing file unless asked to.
///
/// Reading a file and writing it back gives a file that reads back to the same
/// ``ChainPreset``; writing a value twice gives the same bytes.
/// - Thread: [control]
public enum PresetWriter {
    /// The JSON text of a preset.
    /// - Thread: [control]
    public static func encode(_ preset: ChainPreset) -> Data {
        Data(encodeString(preset).utf8)
    }

    /// The JSON text of a preset, as a string.
    /// - Thread: [control]
    public static func encodeString(_ preset: ChainPreset) -> String {
        var members: [(String, JSONNode.Value)] = [
            ("auhost", .number(Double(ChainPreset.schemaVersion))),
            ("name", .string(preset.name)),
        ]
        if let description = preset.description { members.append(("description", .string(description))) }
        if let sampleRate = preset.sampleRate { members.append(("sampleRate", .number(sampleRate))) }
        members.append(("nodes", .array(preset.nodes.map { JSONWriter.node(encode($0)) })))
        switch preset.routing {
        case .chain(let ids):
            members.append(("chain", .array(ids.map { JSONWriter.node(.string($0)) })))
        case .connections(let connections):
            members.append(("connections", .array(connections.map { connection in
                JSONWriter.node(.array([JSONWriter.node(.string(connection.source.description)), JSONWriter.node(.string(connection.destination.description))]))
            })))
        }
        if !preset.midi.isEmpty {
            members.append(("midi", .array(preset.midi.map { connection in
                guard !connection.isPlain else {
                    return JSONWriter.node(.array([JSONWriter.node(.string(connection.from)), JSONWriter.node(.string(connection.to))]))
                }
                var fields: [(String, JSONNode.Value)] = [("from", .string(connection.from)), ("to", .string(connection.to))]
                if let channels = connection.channels { fields.append(("channels", .string(channels))) }
                if let channel = connection.channel { fields.append(("channel", .number(Double(channel)))) }
                return JSONWriter.node(JSONWriter.object(fields))
            })))
        }
        if !preset.midiMap.isEmpty { members.append(("midiMap", .array(preset.midiMap.map { JSONWriter.node(encode($0)) }))) }
        if !preset.snapshots.isEmpty {
            members.append(("snapshots", .array(preset.snapshots.map { snapshot in
                var fields: [(String, JSONNode.Value)] = [("name", .string(snapshot.name))]
                fields.append(("parameters", JSONWriter.object(snapshot.parameters.map(member))))
                if let ramp = snapshot.ramp { fields.append(("ramp", .number(ramp))) }
                return JSONWriter.node(JSONWriter.object(fields))
            })))
        }
        if let autoconvert = preset.autoconvert { members.append(("autoconvert", .bool(autoconvert))) }
        if !preset.tracks.isEmpty {
            members.append(("tracks", JSONWriter.object(preset.tracks.sorted { $0.key < $1.key }.map { (String($0.key), .string($0.value)) })))
        }
        return JSONWriter.write(JSONWriter.node(JSONWriter.object(members)))
    }

    private static func encode(_ mapping: PresetMIDIMapping) -> JSONNode.Value {
        var members: [(String, JSONNode.Value)]
        switch mapping.source {
        case .controlChange(let number): members = [("cc", .number(Double(number)))]
        case .pitchBend: members = [("pitchBend", .bool(true))]
        case .note(let number): members = [("note", .number(Double(number)))]
        }
        if let channel = mapping.channel { members.append(("channel", .number(Double(channel)))) }
        members.append(("parameter", .string(mapping.parameter)))
        if let minimum = mapping.minimum { members.append(("min", .number(minimum))) }
        if let maximum = mapping.maximum { members.append(("max", .number(maximum))) }
        if mapping.curve != .linear { members.append(("curve", .string(mapping.curve.rawValue))) }
        if let smoothing = mapping.smoothing { members.append(("smoothing", .number(smoothing))) }
        return JSONWriter.object(members)
    }

    /// A parameter as an object member: its key and its number or value string.
    private static func member(_ parameter: PresetParameter) -> (String, JSONNode.Value) {
        switch parameter.value {
        case .number(let number): (parameter.key, .number(number))
        case .named(let name): (parameter.key, .string(name))
        }
    }

    private static func encode(_ node: PresetNode) -> JSONNode.Value {
        var members: [(String, JSONNode.Value)] = [("id", .string(node.id)), ("unit", .string(node.unit))]
        let own = node.parameters.filter { !PresetNode.propertyKeys.contains($0.key) }
        if !own.isEmpty { members.append(("parameters", JSONWriter.object(own.map(member)))) }
        for key in PresetNode.propertyKeys {
            if let parameter = node.parameters.first(where: { $0.key == key }) { members.append(member(parameter)) }
        }
        if let preset = node.preset { members.append(("preset", .string(preset))) }
        if let bypass = node.bypass { members.append(("bypass", .bool(bypass))) }
        if let isolation = node.isolation { members.append(("isolation", .string(isolation.rawValue))) }
        if let state = node.state { members.append(("state", .string(state.base64EncodedString()))) }
        return JSONWriter.object(members)
    }

    /// Writes the preset to `path` atomically: into a temporary file in the same folder,
    /// flushed to disk, then moved into place. An existing file is an error unless `force`;
    /// then it is replaced in one step; a device, a FIFO or one of `inputs` (the preset it
    /// was loaded from) never is. No partial file is left behind on failure.
    /// - Thread: [control]
    public static func save(_ preset: ChainPreset, to path: String, force: Bool = false, inputs: [String] = []) throws(PresetError) {
        do {
            let file = try AtomicFile(destination: path, overwrite: force, inputs: inputs)
            try file.write(encode(preset))
            try file.commit()
        } catch {
            throw problem(error, path: path)
        }
    }

    /// The problem an atomic write's failure is for the preset file at `path`.
    private static func problem(_ failure: AtomicFileFailure, path: String) -> PresetError {
        let kind: PresetProblem.Kind
        let message: String
        switch failure {
        case .notAFileName:
            (kind, message) = (.writeFailed, "is not a file name; expected a path such as presets/chain.json")
        case .folderMissing(let folder, _):
            (kind, message) = (.writeFailed, "cannot write: the folder \(quoted(folder, limit: .max)) does not exist")
        case .destinationIsAFolder:
            (kind, message) = (.writeFailed, "is a folder; expected a file name to save the preset to")
        case .notARegularFile(let node):
            (kind, message) = (.writeFailed, "is \(node), not a file; expected a file name to save the preset to (it is never replaced)")
        case .destinationIsAnInput(let input):
            (kind, message) = (.writeFailed, "is the preset being saved, \(quoted(input, limit: .max)); expected a new file name")
        case .destinationExists, .destinationAppeared:
            (kind, message) = (.fileExists, "already exists; expected a new file name, or --force to replace it")
        case .cannotMoveIntoPlace:
            (kind, message) = (.writeFailed, "cannot move the new file into place: \(failure.systemReason ?? "")")
        case .cannotCreateTemporary, .cannotWrite, .cannotFlush, .cannotClose:
            (kind, message) = (.writeFailed, "cannot write: \(failure.systemReason ?? "")")
        }
        return PresetError([PresetProblem(kind, file: path, path: "", message: message)])
    }
}
