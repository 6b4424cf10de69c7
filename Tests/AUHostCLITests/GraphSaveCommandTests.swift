import AUCore
import AUHost
import AUHostCLI
import AUPresets
import Foundation
import Testing
import AUTestSupport

/// `auhost graph` and `auhost save`, run as the real executable over the shipped presets.
@Suite struct GraphSaveCommandTests {
    /// Runs Graphviz's `dot` over `text`; nil when Graphviz is not installed.
    static func drawWithGraphviz(_ text: String) throws -> (status: Int32, svg: String)? {
        guard let dot = ["/usr/bin/dot", "/usr/local/bin/dot"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        let folder = try TemporaryFolder(prefix: "auhost-graph-save")
        defer { folder.remove() }
        let source = folder.url.appendingPathComponent("graph.dot")
        try Data(text.utf8).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dot)
        process.arguments = ["-Tsvg", source.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        let svg = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: svg, as: UTF8.self))
    }

    static var graphvizInstalled: Bool { ["/usr/bin/dot", "/usr/local/bin/dot"].contains(where: FileManager.default.isExecutableFile(atPath:)) }

    // MARK: graph

    @Test func theDumpNamesEveryNodeOfTheInitializedGraph() throws {
        let result = try runExecutable(["graph", ShippedPresets.path("vocal.json")])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("'Vocal' at 48000 Hz, 2 ch in, 2 ch out"))
        #expect(result.output.contains("AudioGraph: 5 node(s), 5 connection(s), initialized"))
        for id in ["eq", "deess", "comp", "room", "io"] {
            #expect(result.output.contains("'\(id)'"), "the dump does not name \(id)")
        }
        #expect(result.output.contains("Render plan: 'eq'"))
        #expect(result.errors.isEmpty)
    }

    @Test func aChainWithoutAudioInputSaysSo() throws {
        let result = try runExecutable(["graph", ShippedPresets.path("synth-patch.json")])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("no audio input, 2 ch out"))
        #expect(result.output.contains("'synth' (#1) output 0 -> 'filter' (#2) input 0"))
    }

    @Test func overridesAndTheSampleRateReachTheGraph() throws {
        let result = try runExecutable([
            "graph", ShippedPresets.path("podcast-cleanup.json"), "--sample-rate", "44100", "--set", "leveler.ratio=6",
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("at 44100 Hz, 1 ch in, 1 ch out"))
        #expect(result.output.contains("44100 Hz, 1 ch"))
        let bad = try runExecutable(["graph", ShippedPresets.path("podcast-cleanup.json"), "--set", "leveler.ratio=60", "--set", "gate.nope=1"])
        #expect(bad.status == 1)
        let lines = bad.errors.split(separator: "\n")
        #expect(lines.count == 2, "one line per problem: \(bad.errors)")
        #expect(lines.allSatisfy { $0.hasPrefix("auhost: --set: ") })
        #expect(bad.output.isEmpty)
    }

    @Test func dotIsGraphvizInput() throws {
        let result = try runExecutable(["graph", ShippedPresets.path("mastering.json"), "--dot"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("digraph AudioGraph {"))
        for id in ["eq", "glue", "limiter"] { #expect(result.output.contains("label=\"\(id)\\n")) }
        if let drawn = try Self.drawWithGraphviz(result.output) {
            #expect(drawn.status == 0)
            #expect(drawn.svg.contains("<svg"))
        }
    }

    @Test func svgIsDrawnByGraphvizIntoPlace() throws {
        let folder = try TemporaryFolder(prefix: "auhost-graph-save")
        defer { folder.remove() }
        let svg = folder.file("chain.svg")
        let result = try runExecutable(["graph", ShippedPresets.path("guitar-amp.json"), "--svg", svg])
        if Self.graphvizInstalled {
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output == "wrote \(svg)\n")
            let text = try String(contentsOfFile: svg, encoding: .utf8)
            #expect(text.contains("<svg") && text.contains("cabinet"))
        } else {
            #expect(result.status == 1)
            #expect(result.errors.contains("Graphviz ('dot') is not installed"))
        }
        // Nothing but the drawing is left in the folder (no temporary file).
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == (Self.graphvizInstalled ? ["chain.svg"] : []))
    }

    @Test func svgWithoutGraphvizIsOneClearErrorAndNoFile() throws {
        let folder = try TemporaryFolder(prefix: "auhost-graph-save")
        defer { folder.remove() }
        let empty = folder.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let svg = folder.file("chain.svg")
        let result = try runExecutable(["graph", ShippedPresets.path("vocal.json"), "--svg", svg], environment: ["PATH": empty.path])
        #expect(result.status == 1)
        let lines = result.errors.split(separator: "\n")
        #expect(lines.first == "auhost: \(svg): cannot draw the SVG: Graphviz ('dot') is not installed")
        #expect(lines.last?.contains("install the graphviz package") == true)
        #expect(!FileManager.default.fileExists(atPath: svg))
    }

    @Test(arguments: [
        (["graph"], 64, "'graph' needs a PRESET.json"),
        (["graph", "a.json", "--dot", "--svg", "x.svg"], 64, "--dot and --svg are two different outputs"),
        (["graph", "a.json", "--sample-rate", "fast"], 64, "--sample-rate takes a sample rate in 8000...768000 Hz"),
        (["graph", "/nonexistent/preset.json"], 1, "/nonexistent/preset.json"),
        (["graph", "a.json", "--svg", "/nonexistent/folder/x.svg"], 1, "output folder '/nonexistent/folder' does not exist"),
        (["save", "a.json"], 64, "'save' needs a PRESET.json and an OUTPUT.json"),
        (["save", "a.json", "b.json", "--name", ""], 64, "--name takes a non-empty name"),
        (["save", "/nonexistent/preset.json", "b.json"], 1, "/nonexistent/preset.json"),
    ])
    func mistakesAreOneLineWithTheRightStatus(arguments: [String], status: Int32, message: String) throws {
        let result = try runExecutable(arguments)
        #expect(result.status == status)
        #expect(result.errors.split(separator: "\n").first?.contains(message) == true, "\(result.errors)")
        #expect(!result.errors.contains("Fatal error"))
        #expect(result.output.isEmpty)
    }

    // MARK: save

    /// Saving with overrides and loading the saved file gives the chain the overrides
    /// made; saving that again gives the same bytes.
    @Test(arguments: [
        ("vocal.json", ["comp.threshold=-24", "room.mix=20", "eq.gain4=4.5"]),
        ("synth-patch.json", ["synth.waveform=Square", "echo.time=500"]),
        ("podcast-cleanup.json", [String]()),
        ("test-signal.json", ["tone.frequency=220"]),
    ])
    func saveThenLoadRoundTrips(file: String, sets: [String]) throws {
        let folder = try TemporaryFolder(prefix: "auhost-graph-save")
        defer { folder.remove() }
        let saved = folder.file("saved.json")
        let result = try runExecutable(["save", ShippedPresets.path(file), saved] + sets.flatMap { ["--set", $0] })
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("saved \(saved): "))

        let registry = HostRegistry.make()
        let original = try PresetLoader(registry: registry).load(file: ShippedPresets.path(file), overrides: try ParameterOverride.parse(sets))
        let reloaded = try PresetLoader(registry: registry).load(file: saved)
        defer { original.dispose(); reloaded.dispose() }
        #expect(try reloaded.capture() == original.capture())
        #expect(reloaded.preset.name == original.preset.name && reloaded.preset.routing == original.preset.routing)
        for node in reloaded.nodes {
            let before = try #require(original.node(id: node.id)).unit
            for (index, info) in node.unit.parameters.infos.enumerated() where info.isWritable {
                #expect(node.unit.parameters.value(at: index) == before.parameters.value(at: index), "\(node.id).\(info.identifier)")
            }
        }

        let again = folder.file("again.json")
        #expect(try runExecutable(["save", saved, again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: saved)))
    }

    @Test func saveNeverReplacesAFileWithoutForce() throws {
        let folder = try TemporaryFolder(prefix: "auhost-graph-save")
        defer { folder.remove() }
        let target = folder.file("mine.json")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        let refused = try runExecutable(["save", ShippedPresets.path("mastering.json"), target])
        #expect(refused.status == 1)
        #expect(refused.errors == "auhost: \(target): already exists; expected a new file name, or --force to replace it\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")

        let forced = try runExecutable(["save", ShippedPresets.path("mastering.json"), target, "--force", "--name", "My master"])
        #expect(forced.status == 0, "\(forced.errors)")
        let preset = try PresetLoader.read(file: target)
        #expect(preset.name == "My master")
        #expect(preset.nodes.map(\.id) == ["eq", "glue", "limiter"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["mine.json"])
    }

    @Test func saveReportsEveryProblemAtOnceAndWritesNothing() throws {
        let folder = try TemporaryFolder(prefix: "auhost-graph-save")
        defer { folder.remove() }
        let target = folder.file("out.json")
        let result = try runExecutable([
            "save", ShippedPresets.path("vocal.json"), target, "--set", "comp.ratio=50", "--set", "room.nope=1", "--set", "nonode.gain=3",
        ])
        #expect(result.status == 1)
        #expect(result.errors.split(separator: "\n").count == 3, "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: target))
        let missingFolder = try runExecutable(["save", ShippedPresets.path("vocal.json"), folder.path + "/no/such/out.json"])
        #expect(missingFolder.status == 1)
        #expect(missingFolder.errors.contains("does not exist"))
    }

    @Test func saveAllRecordsEveryWritableParameter() throws {
        let folder = try TemporaryFolder(prefix: "auhost-graph-save")
        defer { folder.remove() }
        let target = folder.file("all.json")
        #expect(try runExecutable(["save", ShippedPresets.path("stereo-widener.json"), target, "--all"]).status == 0)
        let trim = try #require(try PresetLoader.read(file: target).node(id: "trim"))
        #expect(Set(trim.parameters.map(\.key)) == ["gain", "smoothing"])
    }
}

/// `auhost graph --live` shows the plan and latency `auhost run` uses: checked against a
/// running `auhost run`'s `status` under a jackd of its own (run with the live suites).
@Suite(.serialized) struct GraphLivePlanLiveTests {
    static let reference = ShippedPresets.folder.appendingPathComponent("reference.json").path

    /// The number after `prefix` in `text` (`latency=` in a status, `Latency: ` in a dump).
    static func number(after prefix: String, in text: String) -> Int? {
        guard let range = text.range(of: prefix) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("graph --live --period 64 reports the latency and plan run reports; offline graph pipelines, --live does not without --pipeline")
    func graphLiveAgreesWithRun() throws {
        let offline = try runExecutable(["graph", Self.reference, "--threads", "2"])
        let live = try runExecutable(["graph", Self.reference, "--threads", "2", "--live", "--period", "64"])
        let pipelined = try runExecutable(["graph", Self.reference, "--threads", "2", "--live", "--period", "64", "--pipeline"])
        #expect(offline.status == 0 && live.status == 0 && pipelined.status == 0, "\(offline.errors)\(live.errors)\(pipelined.errors)")
        #expect(offline.output.contains("pipelined in") && !live.output.contains("pipelined in") && pipelined.output.contains("pipelined in"), "\(live.output)")
        let shown = try #require(Self.number(after: "Latency: ", in: live.output), "\(live.output)")
        #expect(Self.number(after: "Latency: ", in: pipelined.output) == shown + 64, "\(pipelined.output)")
        let refused = try runExecutable(["graph", Self.reference, "--period", "64"])
        #expect(refused.status == 64 && refused.errors.contains("add --live"), "\(refused.errors)")

        let rig = try LiveRig(chain: Self.reference, extraArguments: ["--threads", "2"])
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        let status = try rig.send("status")
        #expect(Self.number(after: "latency=", in: status) == shown, "run: \(status); graph --live: \(shown)")
        #expect(status.contains("plan=single") || status.contains("plan=parallel"), "\(status)")
    }
}
