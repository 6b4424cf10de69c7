import AUCore
import AUHost
import AUPresets
import AUTestSupport
import Foundation
import Testing

/// The live control protocol's commands against a chain rendered offline (no JACK needed).
@Suite struct ChainSessionTests {
    static let chain = """
        {"auhost": 1, "name": "Session",
         "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}, {"id": "comp", "unit": "aufx:comp:AUHs", "parameters": {"threshold": -30}}],
         "chain": ["eq", "comp"]}
        """

    func session() throws -> ChainSession {
        let registry = HostRegistry.make()
        let chain = try ChainGraph(try loadPreset(Self.chain, registry: registry), registry: registry, sampleRate: 48_000)
        try chain.graph.start()
        return ChainSession(chain: chain, registry: registry, saveFolder: FileManager.default.temporaryDirectory)
    }

    /// Renders a loud block so that meters move.
    func renderLoud(_ session: ChainSession) {
        let input = OwnedAudioBuffers(channels: 2, capacity: 4_096)
        let output = OwnedAudioBuffers(channels: 2, capacity: 4_096)
        for channel in 0..<2 { input.buffers()[channel].update(repeating: 0.9) }
        _ = session.chain.graph.render(frameCount: 4_096, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: output.buffers())
    }

    /// A value with spaces is set in double quotes, as `get` prints it; unquoted it is too
    /// many words, and an unclosed quote is one clear error.
    @Test func aValueWithSpacesIsSetInQuotesAsGetPrintsIt() throws {
        let registry = HostRegistry.make()
        let preset = #"{"auhost": 1, "name": "Cab", "nodes": [{"id": "cab", "unit": "aufx:peq :AUHs"}], "chain": ["cab"]}"#
        let chain = try ChainGraph(try loadPreset(preset, registry: registry), registry: registry, sampleRate: 48_000)
        defer { chain.dispose() }
        try chain.graph.start()
        let session = ChainSession(chain: chain, registry: registry, saveFolder: FileManager.default.temporaryDirectory)
        #expect(session.reply(to: #"set cab band1_shape "Low Shelf""#).reply.hasPrefix("ok"), "\(session.reply(to: "get cab band1_shape").reply)")
        let printed = session.reply(to: "get cab band1_shape").reply
        #expect(printed == #"ok "Low Shelf""#)
        #expect(session.reply(to: "set cab band1_shape High Pass").reply == "error: usage: set NODE PARAM VALUE")
        #expect(session.reply(to: #"set cab band1_shape "High Pass"#).reply.hasPrefix("error: a quoted word has no closing quote"))
        // What get printed, set takes back.
        #expect(session.reply(to: "set cab band1_shape " + printed.dropFirst(3)).reply.hasPrefix("ok"))
        #expect(session.reply(to: "get cab band1_shape").reply == printed)
    }

    /// `get` reads what `set`, `load` and a preset write, in the form `set` takes back:
    /// property parameters (a sampler's program and bank, convoLV2's impulse), bypass; keys
    /// resolve case-insensitively when unambiguous; an unknown key lists the close ones.
    @Test func getReadsPropertiesAndBypassAsSetTakesThem() throws {
        let registry = HostRegistry.make()
        let convolver = FileManager.default.fileExists(atPath: "/usr/lib/lv2/convo.lv2")
        let cab = convolver ? #", {"id": "cab", "unit": "lv2:http://gareus.org/oss/lv2/convoLV2#Mono"}"# : ""
        let preset = #"{"auhost": 1, "name": "Get", "nodes": [{"id": "samp", "unit": "aumu:samp:AUHs", "program": 5}, {"id": "g", "unit": "aufx:gain:AUHs", "parameters": {"GAIN": -6}}\#(cab)], "chain": ["samp", "g"\#(convolver ? #", "cab""# : "")]}"#
        let chain = try ChainGraph(try loadPreset(preset, registry: registry), registry: registry, sampleRate: 48_000)
        defer { chain.dispose() }
        try chain.graph.start()
        let session = ChainSession(chain: chain, registry: registry, saveFolder: FileManager.default.temporaryDirectory)
        #expect(session.reply(to: "get samp program").reply == "ok 5")
        // Keys resolve case-insensitively when unambiguous, in the preset (GAIN) and live.
        #expect(session.reply(to: "get g gain").reply == "ok -6")
        #expect(session.reply(to: "set samp PROGRAM 7").reply == "ok 7")
        #expect(session.reply(to: "set samp program 41").reply == "ok 41")
        #expect(session.reply(to: "get samp Program").reply == "ok 41")
        #expect(session.reply(to: "set samp bank 8").reply.hasPrefix("ok"))
        #expect(session.reply(to: "get samp bank").reply == "ok 8")
        #expect(session.reply(to: "get g bypass").reply == "ok off")
        #expect(session.reply(to: "bypass g on").reply.hasPrefix("ok"))
        #expect(session.reply(to: "get g bypass").reply == "ok on")
        let misspelt = session.reply(to: "get samp progrm").reply
        #expect(misspelt.hasPrefix("error: node 'samp' has no parameter 'progrm'; did you mean 'program'"), "\(misspelt)")
        guard convolver else { return }
        let folder = try TemporaryFolder(prefix: "auhost-get")
        defer { folder.remove() }
        let impulse = folder.file("ir.wav")
        try Data(Self.silentWave).write(to: URL(fileURLWithPath: impulse))
        #expect(session.reply(to: "load cab \(impulse)").reply.hasPrefix("ok"))
        let got = session.reply(to: "get cab impulse").reply
        #expect(got == "ok \(impulse)", "\(got)")
        #expect(session.reply(to: "set cab impulse " + got.dropFirst(3)).reply.hasPrefix("ok"))
    }

    /// A 44-byte WAV header and one silent 16-bit mono frame at 48 kHz.
    static let silentWave: [UInt8] = Array("RIFF".utf8) + [38, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x80, 0xBB, 0, 0, 0, 0x77, 1, 0, 2, 0, 16, 0]
        + Array("data".utf8) + [2, 0, 0, 0, 0, 0]

    @Test func quotedWordsSplitAndQuoteBack() throws {
        #expect(try ControlWords.split("set  a \"b c\"\t\"d\\\"e\\\\\" \"\"") == ["set", "a", "b c", #"d"e\"#, ""])
        for word in ["plain", "Low Shelf", #"say "hi""#, #"back\slash"#, "", "tab\there"] {
            #expect(try ControlWords.split("x " + ControlWords.quoted(word)) == ["x", word], "\(word)")
        }
        // Scalars, not Characters: a combining mark after a separator or a quote stays in its word.
        #expect(try ControlWords.split("save\t\u{301}\t--force") == ["save", "\u{301}", "--force"])
        #expect(try ControlWords.split("x \"a\"\u{301}") == ["x", "a\u{301}"])
    }

    @Test func presetLoadsAFactoryPresetByName() throws {
        let session = try session()
        defer { session.chain.dispose() }
        let presets = try session.chain.node("eq").unit.value(of: .factoryPresets)
        let name = try #require(presets.first { $0.name.contains("Bass") }?.name)
        #expect(session.reply(to: "preset eq \(name.lowercased())").reply.hasPrefix("ok "))
        #expect(try session.chain.node("eq").unit.value(of: .presentPreset).name == name)
        #expect(session.reply(to: "preset eq No Such Preset").reply.hasPrefix("error: node 'eq' has no factory preset 'No Such Preset'; it has: "))
    }

    @Test func metersReportOutputParameters() throws {
        let session = try session()
        defer { session.chain.dispose() }
        renderLoud(session)
        let reply = session.reply(to: "meters").reply
        #expect(reply.hasPrefix("ok comp."), "\(reply)")
        let value = reply.split(separator: " ").dropFirst().first.flatMap { Float($0.split(separator: "=").last ?? "") }
        #expect(value.map { $0 != 0 } ?? false, "the compressor's gain reduction did not move: \(reply)")
    }

    @Test func saveWritesTheChainAsItIsNowAndNeverOverwrites() throws {
        let session = try session()
        defer { session.chain.dispose() }
        #expect(session.reply(to: "set comp threshold -12").reply == "ok -12")
        #expect(session.reply(to: "bypass eq on").reply == "ok on")
        let name = "auhost-session-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent(name)) }
        #expect(session.reply(to: "save \(name)").reply == "ok saved \(name)")
        #expect(session.reply(to: "save \(name)").reply.hasPrefix("error: \(name): already exists"))
        #expect(session.reply(to: "save \(name) --force").reply == "ok saved \(name)")
        let saved = try PresetLoader.read(file: FileManager.default.temporaryDirectory.appendingPathComponent(name).path)
        #expect(saved.node(id: "comp")?.value(of: "threshold") == .number(-12))
        #expect(saved.node(id: "eq")?.bypass == true)
    }

    /// `set` and `get` find a parameter the same way, by identifier or by name in any case;
    /// what `get` prints (the shortest form that reads back to the same Float, not `%g`'s six
    /// digits) `set` takes back unchanged and `save` writes.
    @Test func setAndGetNameAParameterAlikeAndAgreeOnItsValue() throws {
        let session = try session()
        defer { session.chain.dispose() }
        #expect(session.reply(to: #"set comp "makeup gain" 3.5"#).reply == "ok 3.5")
        #expect(session.reply(to: "get comp makeup").reply == "ok 3.5")
        #expect(session.reply(to: #"get comp "Makeup Gain""#).reply == "ok 3.5")
        #expect(session.reply(to: "set comp Threshold -12.345678").reply == "ok -12.345678")
        let printed = session.reply(to: "get comp threshold").reply
        #expect(printed == "ok -12.345678")
        #expect(session.reply(to: "set comp threshold " + printed.dropFirst(3)).reply == printed)
        #expect(session.reply(to: "get comp nothing").reply.hasPrefix("error: node 'comp' has no parameter 'nothing'"))
        #expect(session.reply(to: "set comp nothing 1").reply.hasPrefix("error: node 'comp' has no parameter 'nothing'"))
        #expect(session.reply(to: "set comp gain_reduction 1").reply.contains("read-only"))
        let name = "auhost-session-\(UUID().uuidString).json"
        #expect(session.reply(to: "save \(name)").reply == "ok saved \(name)")
        defer { try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent(name)) }
        let text = try String(contentsOf: FileManager.default.temporaryDirectory.appendingPathComponent(name), encoding: .utf8)
        #expect(text.contains(#""threshold": -12.345678"#) && text.contains(#""makeup": 3.5"#), "\(text)")
    }

    /// Every verb `ControlCommand(parsing:)` accepts (the words of its switch's cases, read
    /// from the source, so that a new command cannot be left out) is in the reply to `help`.
    @Test func helpListsEveryCommand() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/AUHost/Chain/ControlCommand.swift")
        let text = try String(contentsOf: source.standardized, encoding: .utf8)
        let parser = try #require(text.range(of: "public init(parsing line: String)"))
        let verbs = text[parser.upperBound...].split(separator: "\n")
            .filter { $0.hasPrefix("        case \"") }
            .flatMap { $0.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) } }
        #expect(verbs.count >= 14, "read \(verbs) from \(source.path)")
        for verb in verbs {
            do {
                _ = try ControlCommand(parsing: verb)
            } catch {
                #expect(!error.message.hasPrefix("unknown command"), "'\(verb)' is not a verb: \(error.message)")
            }
        }
        let session = try session()
        defer { session.chain.dispose() }
        let reply = session.reply(to: "help").reply
        let words = Set(reply.split { !$0.isLetter }.map(String.init))
        let missing = verbs.filter { !words.contains($0) }
        #expect(reply.hasPrefix("ok commands: ") && missing.isEmpty, "help leaves out \(missing): \(reply)")
    }

    /// Issue 35: `save .` and `save ""` name no file, and say so (they were called a
    /// symbolic link leading out of the save folder).
    @Test func saveWithoutAFileNameSaysSo() throws {
        let session = try session()
        defer { session.chain.dispose() }
        for name in [".", #""""#, "sub/.", "sub/"] {
            let reply = session.reply(to: "save \(name)").reply
            #expect(reply.hasPrefix("error: '") && reply.contains("': not a file name; live saves go into "), "\(name): \(reply)")
        }
    }
}
