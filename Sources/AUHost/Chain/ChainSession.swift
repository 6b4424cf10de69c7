import AUBridge
import AUCore
import AUEngine
import AUPresets
import Foundation

/// Carries out control commands (``ControlCommand``) on a running chain: set and get
/// parameters by node id and parameter identifier or name, bypass nodes, load factory presets,
/// read meters and status, save the chain as a preset (into ``saveFolder`` only). Every
/// command has a one-line reply.
/// - Thread: [control] (one command at a time; the caller serialises).
public final class ChainSession: @unchecked Sendable {
    /// The chain the commands work on (`open` replaces it: ``adopt(_:)``).
    public private(set) var chain: ChainGraph
    /// The folder `save NAME` writes into: NAME is a file name or a relative path inside it;
    /// an absolute path, a `..` component or a symbolic link leading out of it is refused.
    public let saveFolder: URL
    private let registry: ComponentRegistry
    /// Extra facts for `status` (the driver's DSP load, xruns…), as `key=value` words.
    private let statusProvider: @Sendable () -> String
    /// The song the chain plays (`auhost play`): `play`, `stop` and `seek` move it and
    /// `status` tells where it is.
    public var song: LiveSong?
    /// The chain's MIDI control (`learn`, `unlearn`, `midimap`; `save` writes its mappings).
    public var midiMap: MIDIMap?
    /// The live input, output and node levels (`meters`, `status`); nil offline.
    public var levels: LiveLevels?
    /// What `open FILE` does (a live run loads the preset and switches its chain to it,
    /// then calls ``adopt(_:)``): the reply's words. nil: `open` is refused.
    public var opener: ((String) throws(ControlCommandError) -> [String])?

    /// A session over `chain` whose `save` writes into `saveFolder`; `status` adds the
    /// driver's words to the `status` reply.
    /// - Thread: [control]
    public init(chain: ChainGraph, registry: ComponentRegistry, saveFolder: URL, status: @escaping @Sendable () -> String = { "" }) {
        self.chain = chain
        self.registry = registry
        self.saveFolder = saveFolder
        statusProvider = status
    }

    /// Works on `live`'s chain, map and levels from now on (after it opened a preset).
    /// - Thread: [control]
    public func adopt(_ live: LiveChain) {
        chain = live.chain
        midiMap = live.midiMap
        levels = live.levels
    }

    /// The reply to one line: `ok…` or `error: …`, and whether the client asked to quit.
    /// - Thread: [control]
    public func reply(to line: String) -> (reply: String, quits: Bool) {
        do {
            let command = try ControlCommand(parsing: line)
            // One reply line even when a word echoed back holds a line break.
            let words = try execute(command).map { " " + $0.replacingOccurrences(of: "\n", with: "; ") }
            return ("ok" + words.joined(), command == .quit)
        } catch {
            return ("error: " + error.message.replacingOccurrences(of: "\n", with: "; "), false)
        }
    }

    /// Carries out one command; returns the words after `ok`.
    /// - Thread: [control]
    public func execute(_ command: ControlCommand) throws(ControlCommandError) -> [String] {
        do {
            switch command {
            case .set(let id, let parameter, let text):
                let unit = try chain.node(id).unit
                let value: PresetParameterValue = Double(text).map { .number($0) } ?? .named(text)
                if let property = try propertyChecked({ () throws(ParameterIssue) in try PropertyCheck.resolve(key: parameter, value: value, unit: unit, folder: PropertyCheck.currentDirectory) }) {
                    try property.apply(to: unit)
                    return [ControlWords.quoted(property.value.description)]
                }
                let info = try parameterInfo(parameter, of: unit, node: id)
                let resolved = try presetChecked { () throws(PresetError) in
                    try ParameterOverride(node: id, parameter: info.identifier, value: value).resolve(against: unit)
                }
                try unit.setParameter(resolved.info.id, value: resolved.value, scope: resolved.info.address.scope, element: resolved.info.address.element)
                return [format(resolved.value, resolved.info)]
            case .get(let id, let parameter):
                let node = try chain.node(id)
                let unit = node.unit
                // What `set`, `load` and a preset write, in the form `set` takes back: a
                // property parameter (a file, a sampler's program), then bypass.
                if let property = unit.propertyParameters.first(where: { $0.identifier.caseInsensitiveCompare(parameter) == .orderedSame }) {
                    return [ControlWords.quoted(unit.propertyParameterValue(property.identifier)?.description ?? "")]
                }
                if parameter.caseInsensitiveCompare("bypass") == .orderedSame, unit.parameters.info(forKey: parameter) == nil {
                    return [chain.graph.isBypassed(node.node) ? "on" : "off"]
                }
                let info = try parameterInfo(parameter, of: unit, node: id)
                let value = try unit.parameterValue(info.id, scope: info.address.scope, element: info.address.element)
                return [format(value, info)]
            case .bypass(let id, let isOn):
                try chain.graph.setBypass(isOn, for: try chain.node(id).node)
                return [isOn ? "on" : "off"]
            case .preset(let id, let name):
                let unit = try chain.node(id).unit
                let presets = try unit.value(of: .factoryPresets)
                guard let preset = presets.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                    throw ControlCommandError(
                        "node '\(id)' has no factory preset '\(name)'" + (presets.isEmpty ? "; it has none" : "; it has: \(presets.map(\.name).joined(separator: ", "))"))
                }
                try unit.setValue(preset, for: .presentPreset)
                return [ControlWords.quoted(preset.name)]
            case .load(let id, let file):
                let unit = try chain.node(id).unit
                guard let info = unit.propertyParameters.first(where: { $0.isWritable && $0.valueType == .path }) else {
                    throw ControlCommandError("node '\(id)' reads no file; load takes a sampler's sound bank or a plugin's file")
                }
                let property = try propertyChecked { () throws(ParameterIssue) in
                    try PropertyCheck.resolve(key: info.identifier, value: .named(file), unit: unit, folder: PropertyCheck.currentDirectory)
                }
                try property?.apply(to: unit)
                return ["\(info.identifier)=\(ControlWords.quoted(property?.value.description ?? file))"]
            case .reload(let id):
                guard let bridged = try chain.node(id).unit as? BridgedUnit else {
                    throw ControlCommandError("node '\(id)' runs in this process; reload brings back an isolated node (\"isolation\" or --isolation)")
                }
                try bridged.reload()
                return ["reloaded", id]
            case .meters:
                return meters()
            case .resetClips:
                guard let levels else { throw ControlCommandError("no levels are measured here; meters reset works while the chain runs live") }
                levels.resetClips()
                return ["clips_in=0", "clips_out=0"]
            case .status:
                let latency = chain.latencyFrames
                let milliseconds = Double(latency) / chain.sampleRate * 1000
                let faulted = chain.nodes.filter { chain.graph.isFaulted($0.node) }.map(\.id)
                var words = ["rate=\(Int(chain.sampleRate))", "latency=\(latency)", String(format: "latency_ms=%.2f", milliseconds), "nodes=\(chain.nodes.count)"]
                words.append(threadWords())
                if !faulted.isEmpty { words.append("faulted=\(faulted.joined(separator: ","))") }
                words += chain.isolationStatusWords
                let extra = statusProvider()
                if !extra.isEmpty { words.append(extra) }
                if let levels { words.append(levels.statusWords) }
                if let song { words.append(song.statusWords) }
                if let counts = RenderThread.allocationCounts {
                    words.append("render_allocations=\(counts.allocations) render_frees=\(counts.frees) render_retains=\(counts.retains) render_releases=\(counts.releases) render_locks=\(counts.locks)")
                }
                if StrictRenderCheck.isWatching { words.append("render_trapped=\(StrictRenderCheck.trappedCount)") }
                return words
            case .save(let name, let force):
                let file = try fileInSaveFolder(name)
                let preset = try capture(into: URL(fileURLWithPath: file).deletingLastPathComponent())
                do {
                    try PresetWriter.save(preset, to: file, force: force)
                } catch {
                    throw ControlCommandError(error.problems.map { "\(name): \($0.message)" }.joined(separator: "; "))
                }
                return ["saved \(name)"]
            case .play:
                try requireSong().play()
                return [try requireSong().statusWords]
            case .stop:
                try requireSong().stop()
                return [try requireSong().statusWords]
            case .seek(let text):
                let song = try requireSong()
                try song.seek(toBeats: try song.beats(at: text))
                return ["seek \(text)"]
            case .learn(let parameter):
                let map = try requireMIDIMap()
                try propertyChecked { () throws(ParameterIssue) in try map.learn(parameter) }
                return ["learning", parameter]
            case .unlearn(let parameter):
                let map = try requireMIDIMap()
                if map.learning == parameter { map.cancelLearning() }
                return ["unlearned", parameter, "mappings=\(try map.remove(parameter: parameter))"]
            case .snapshot(let name):
                let map = try requireMIDIMap()
                guard map.recall(name) != nil else {
                    let names = map.snapshots.map(\.name)
                    throw ControlCommandError("no snapshot '\(name)'; " + (names.isEmpty ? "the preset has none (\"snapshots\")" : "the preset has: \(names.joined(separator: ", "))"))
                }
                return ["snapshot", ControlWords.quoted(name)]
            case .midiMap:
                let words = try requireMIDIMap().mappings.map(MIDIMapWords.word)
                return words.isEmpty ? ["none"] : words
            case .open(let file):
                guard let opener else { throw ControlCommandError("open switches a live chain; it works in auhost run") }
                return try opener(file)
            case .help:
                return [ControlCommand.summary]
            case .quit:
                return ["bye"]
            }
        } catch let error as ControlCommandError {
            throw error
        } catch let error as AudioUnitError {
            throw ControlCommandError(error.message)
        } catch {
            throw ControlCommandError("\(error)")
        }
    }

    /// The song, or the error of a song command without one.
    private func requireSong() throws(ControlCommandError) -> LiveSong {
        guard let song else { throw ControlCommandError("no song is playing; play, stop and seek work in auhost play") }
        return song
    }

    /// The MIDI map, or the error of a MIDI control command without one.
    private func requireMIDIMap() throws(ControlCommandError) -> MIDIMap {
        guard let midiMap else {
            throw ControlCommandError("this chain has no MIDI control input; give the preset a midiMap or run it with --midi-connect PORT")
        }
        return midiMap
    }

    /// The chain as it is now, as a preset (graph bypass included) to be saved into `folder`
    /// (file paths inside states are written relative to it).
    /// - Thread: [control]
    public func capture(into folder: URL? = nil) throws(ControlCommandError) -> ChainPreset {
        var preset = try presetChecked { () throws(PresetError) in try chain.loaded.capture(PresetCapture(folder: folder)) }
        if let midiMap { preset.midiMap = midiMap.presetMappings }
        for index in preset.nodes.indices {
            let node = preset.nodes[index]
            if let entry = chain.nodes.first(where: { $0.id == node.id }) {
                preset.nodes[index].bypass = chain.graph.isBypassed(entry.node) ? true : nil
            }
            // A node the file isolated stays isolated in the saved chain.
            preset.nodes[index].isolation = chain.loaded.preset.nodes.first { $0.id == node.id }?.isolation
        }
        return preset
    }

    /// The path of `save NAME`'s file: NAME inside ``saveFolder``, or an error naming NAME.
    private func fileInSaveFolder(_ name: String) throws(ControlCommandError) -> String {
        let folder = saveFolder.resolvingSymlinksInPath().standardizedFileURL.path
        let rule = "live saves go into \(folder); give a file name inside it"
        guard let last = name.split(separator: "/", omittingEmptySubsequences: false).last, !last.isEmpty, last != "." else {
            throw ControlCommandError("'\(name)': not a file name; \(rule), such as take.json")
        }
        guard !name.hasPrefix("/") else { throw ControlCommandError("\(name): an absolute path; \(rule)") }
        guard !name.split(separator: "/").contains("..") else { throw ControlCommandError("\(name): '..' leads out of the save folder; \(rule)") }
        let file = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(name).standardizedFileURL
        let parent = file.deletingLastPathComponent().resolvingSymlinksInPath().path
        guard parent == folder || parent.hasPrefix(folder + "/") else {
            throw ControlCommandError("\(name): a symbolic link leads out of the save folder; \(rule)")
        }
        return file.path
    }

    /// The live levels (``LiveLevels/meterWords``), then every plugin output marked as a
    /// level for the host (``PluginMeters``: a plugin's meter, a compressor's gain reduction)
    /// as `node.param=value`; a plugin's internal outputs are not meters.
    private func meters() -> [String] {
        chain.graph.dispatchPendingNotifications()
        var words = levels?.meterWords ?? []
        for (id, _, unit) in chain.nodes {
            for index in PluginMeters.meterParameters(of: unit) {
                let info = unit.parameters.infos[index]
                words.append("\(id).\(info.identifier)=\(format(unit.parameters.value(at: index), info))")
            }
        }
        return words.isEmpty ? ["none"] : words
    }

    /// How many threads render the plan (`threads=N`) and how (`plan=single`, `plan=parallel`
    /// or `plan=pipelined stages=N`), and the steps the render workers took so far (`worker_steps=N`).
    private func threadWords() -> String {
        let decision = chain.graph.parallelDecision
        let kind = decision?.isPipelined == true ? "pipelined stages=\(decision!.stages.count)" : decision?.isParallel == true ? "parallel" : "single"
        return "threads=\(decision?.threads ?? 1) plan=\(kind) worker_steps=\(chain.graph.stepsRenderedByWorkers)"
    }

    /// The parameter `set` and `get` name: by identifier or by name (``ParameterTable/info(forKey:)``).
    private func parameterInfo(_ key: String, of unit: AudioUnit, node: String) throws(ControlCommandError) -> ParameterInfo {
        if let info = unit.parameters.info(forKey: key) { return info }
        let names = unit.parameters.infos.map(\.identifier) + unit.propertyParameters.map(\.identifier)
        let close = closeNames(to: key, among: names, limit: 3)
        let known = close.isEmpty ? "its parameters are: \(names.joined(separator: ", "))" : "did you mean \(close.map { "'\($0)'" }.joined(separator: " or "))?"
        throw ControlCommandError("node '\(node)' has no parameter '\(key)'; \(known)")
    }

    private func format(_ value: Float, _ info: ParameterInfo) -> String {
        if let name = info.valueString(for: value) { return ControlWords.quoted(name) }
        return formatNumber(value)
    }


    private func propertyChecked<T>(_ body: () throws(ParameterIssue) -> T) throws(ControlCommandError) -> T {
        do {
            return try body()
        } catch {
            throw ControlCommandError(error.message)
        }
    }

    private func presetChecked<T>(_ body: () throws(PresetError) -> T) throws(ControlCommandError) -> T {
        do {
            return try body()
        } catch {
            throw ControlCommandError(error.problems.map { "\($0.path): \($0.message)" }.joined(separator: "; "))
        }
    }
}
