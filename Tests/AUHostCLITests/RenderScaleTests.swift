import AUHost
import AUTestSupport
import Foundation
import Testing

/// `auhost render` for batches that fit on no command line or no one machine (docs/SCALE.md):
/// a list of inputs, an output tree mirroring the inputs', stable shards, a manifest of
/// per-file settings, and a results file a rerun can trust.
@Suite struct RenderScaleTests {
    /// Takes of one name in two folders (`in/a/take0.wav`, `in/b/take0.wav`, ...), the gain
    /// chain, and the list of the inputs.
    static func tree(takes: Int = 3) throws -> (folder: TemporaryFolder, chain: String, list: String, inputs: [String]) {
        let folder = try TemporaryFolder()
        var inputs: [String] = []
        for sub in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: folder.file("in/\(sub)"), withIntermediateDirectories: true)
            for take in 0..<takes {
                let path = folder.file("in/\(sub)/take\(take).wav")
                try writeAudio(path, sampleRate: 48_000, channels: 1, frames: 480) { _, frame in Float(frame % 50) / 100 }
                inputs.append(path)
            }
        }
        let list = folder.file("list.txt")
        try (inputs.joined(separator: "\n") + "\n\n").write(toFile: list, atomically: false, encoding: .utf8)
        return (folder, try folder.preset("gain.json", preset(gainNode, chain: ["gain"])), list, inputs)
    }

    /// The JSON objects of a results file, one per line.
    static func rows(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func aListWithOneNameInTwoFoldersIsMirroredUnderRelativeTo() throws {
        let (folder, chain, list, _) = try Self.tree()
        defer { folder.remove() }
        let collide = try runExecutable(["render", chain, "--inputs-from", list, "--output-dir", folder.file("out"), "--tail", "0"])
        #expect(collide.status == 64)
        #expect(collide.errors.contains("in/a/take0.wav and \(folder.file("in/b/take0.wav")) would both be written to"), "\(collide.errors)")
        #expect(collide.errors.contains("pass --relative-to ROOT"), "\(collide.errors)")
        let mirrored = try runExecutable(["render", chain, "--inputs-from", list, "--output-dir", folder.file("out"), "--relative-to", folder.file("in"), "--tail", "0"])
        #expect(mirrored.status == 0, "\(mirrored.errors)")
        #expect(folder.contents("out") == ["a", "b"])
        #expect(folder.contents("out/a") == ["take0.wav", "take1.wav", "take2.wav"])
        #expect(folder.contents("out/b") == ["take0.wav", "take1.wav", "take2.wav"])
        // The list on standard input.
        let piped = try ChildProcess.run(
            try auhostExecutable(), ["render", chain, "--inputs-from", "-", "--output-dir", folder.file("piped"), "--relative-to", folder.file("in"), "--tail", "0"],
            input: Data(try String(contentsOfFile: list, encoding: .utf8).utf8))
        #expect(piped.status == 0, "\(piped.errors)")
        #expect(folder.contents("piped/a") == ["take0.wav", "take1.wav", "take2.wav"])
        let outside = try runExecutable(["render", chain, folder.file("list.txt"), "--output-dir", folder.file("out2"), "--relative-to", folder.file("in")])
        #expect(outside.status == 1)
        #expect(outside.errors.contains("list.txt: not under --relative-to"), "\(outside.errors)")
        let withoutFolder = try runExecutable(["render", chain, folder.file("in/a/take0.wav"), "-o", folder.file("one.wav"), "--relative-to", folder.file("in")])
        #expect(withoutFolder.status == 64)
        #expect(withoutFolder.errors.contains("--relative-to mirrors the inputs' folders under --output-dir DIR"), "\(withoutFolder.errors)")
        let missing = try runExecutable(["render", chain, "--inputs-from", folder.file("nope.txt"), "--output-dir", folder.file("out3")])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("nope.txt: cannot read the list"), "\(missing.errors)")
    }

    @Test func shardsAreDisjointAndMakeTheWholeAndTheResultsSayEveryFile() throws {
        let (folder, chain, list, inputs) = try Self.tree(takes: 5)
        defer { folder.remove() }
        let results = folder.file("results.jsonl")
        for shard in 0..<3 {
            let run = try runExecutable([
                "render", chain, "--inputs-from", list, "--output-dir", folder.file("out"), "--relative-to", folder.file("in"),
                "--shard", "\(shard)/3", "--results", results, "--tail", "0",
            ])
            #expect(run.status == 0, "\(run.errors)")
        }
        let rows = try Self.rows(results)
        #expect(rows.count == inputs.count)
        #expect(Set(rows.compactMap { $0["input"] as? String }) == Set(inputs), "each input in one shard only")
        #expect(rows.allSatisfy { $0["status"] as? String == "rendered" && ($0["frames"] as? Int) == 480 && ($0["seconds"] as? Double ?? -1) >= 0 })
        #expect(folder.contents("out/a").count == 5 && folder.contents("out/b").count == 5)
        // A rerun with --skip-existing after losing one output renders that one only.
        try FileManager.default.removeItem(atPath: folder.file("out/b/take3.wav"))
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: inputs[0]))
        try FileManager.default.removeItem(atPath: folder.file("out/a/take0.wav"))
        let rerun = try runExecutable([
            "render", chain, "--inputs-from", list, "--output-dir", folder.file("out"), "--relative-to", folder.file("in"),
            "--skip-existing", "--results", results, "--tail", "0",
        ])
        #expect(rerun.status == 1)
        let again = Array(try Self.rows(results).dropFirst(inputs.count))
        #expect(again.filter { $0["status"] as? String == "skipped" }.count == inputs.count - 2)
        #expect(again.filter { $0["status"] as? String == "rendered" }.compactMap { $0["output"] as? String } == [folder.file("out/b/take3.wav")])
        let failed = try #require(again.first { $0["status"] as? String == "failed" })
        #expect(failed["input"] as? String == inputs[0])
        #expect((failed["error"] as? String)?.contains(inputs[0]) == true, "\(failed)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/a/take0.wav")))
        let bad = try runExecutable(["render", chain, inputs[1], "--output-dir", folder.file("x"), "--shard", "3/3"])
        #expect(bad.status == 64)
        #expect(bad.errors.contains("--shard takes I/N with 0 <= I < N"), "\(bad.errors)")
    }

    /// A WAV cut short (its header gives twice the audio it holds) renders what it holds,
    /// exit 0, with one warning naming it, which its results row keeps.
    @Test func anInputCutShortRendersWhatItHoldsWithAWarningInItsRow() throws {
        let (folder, chain, _, inputs) = try Self.tree(takes: 1)
        defer { folder.remove() }
        let bytes = try #require(FileManager.default.contents(atPath: inputs[0]))
        let cut = folder.file("cut.wav")
        try bytes.prefix(bytes.count - 480).write(to: URL(fileURLWithPath: cut))
        let results = folder.file("results.jsonl")
        let run = try runExecutable(["render", chain, cut, inputs[1], "--output-dir", folder.file("out"), "--results", results, "--tail", "0"])
        #expect(run.status == 0, "\(run.errors)")
        let warnings = run.errors.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings == ["auhost: warning: \(cut): cut short: its header gives 1920 bytes of audio, the file holds 1440 (360 frames); rendered what it holds"], "\(run.errors)")
        #expect(try readAudio(folder.file("out/cut.wav")).samples[0].count == 360)
        let rows = try Self.rows(results)
        #expect(rows.count == 2)
        #expect((rows.first { ($0["input"] as? String) == cut }?["warnings"] as? [String])?.first?.contains("cut short") == true, "\(rows)")
        let wholeFilesWarnings: [String] = rows.first { ($0["input"] as? String) == inputs[1] }?["warnings"] as? [String] ?? []
        #expect(wholeFilesWarnings.isEmpty, "\(rows)")
    }

    @Test func manifestRowsSetEachFileAndARangeIsDrawnFromTheSeed() throws {
        let (folder, chain, _, inputs) = try Self.tree(takes: 1)
        defer { folder.remove() }
        let manifest = folder.file("rows.jsonl")
        let rows = [
            #"{"input": "\#(inputs[0])", "output": "\#(folder.file("m/half.wav"))", "set": {"gain.gain": -6.0206}}"#,
            #"{"input": "\#(inputs[0])", "output": "\#(folder.file("m/seven.wav"))", "set": {"gain.gain": [-12, 0]}, "seed": 7}"#,
            #"{"input": "\#(inputs[1])", "output": "\#(folder.file("m/deep/seven-again.wav"))", "set": {"gain.gain": [-12, 0]}, "seed": 7}"#,
            #"{"input": "\#(inputs[1])", "output": "\#(folder.file("m/eight.wav"))", "set": {"gain.gain": [-12, 0]}, "seed": 8}"#,
        ]
        try rows.joined(separator: "\n").write(toFile: manifest, atomically: false, encoding: .utf8)
        let results = folder.file("results.jsonl")
        let run = try runExecutable(["render", chain, "--manifest", manifest, "--results", results, "--tail", "0", "--bit-depth", "32f"])
        #expect(run.status == 0, "\(run.errors)")
        let input = try readAudio(inputs[0]).samples[0]
        let half = try readAudio(folder.file("m/half.wav")).samples[0]
        #expect(zip(input, half).allSatisfy { abs($0 * 0.5 - $1) < 1e-5 })
        let sets = try Self.rows(results).map { ($0["set"] as? [String]) ?? [] }
        #expect(sets[0] == ["gain.gain=-6.0206"])
        #expect(sets[1] == sets[2], "one seed, one value")
        #expect(sets[1] != sets[3])
        let first = try #require(sets[1].first)
        let drawn = try #require(Double(first.split(separator: "=")[1]))
        #expect((-12...0).contains(drawn))
        let seven = try readAudio(folder.file("m/seven.wav")).samples[0]
        #expect(zip(input, seven).allSatisfy { abs($0 * Float(pow(10, drawn / 20)) - $1) < 1e-5 })

        for (row, message) in [
            (#"{"input": 3}"#, #"rows.jsonl:1: expected "input": a path"#),
            (#"{"input": "x.wav", "sets": {}}"#, "rows.jsonl:1: unknown key 'sets'"),
            (#"{"input": "x.wav", "set": {"gain.gain": [0, -1]}, "seed": 1}"#, "expected a range [LOW, HIGH] with LOW <= HIGH"),
            (#"{"input": "x.wav", "set": {"gain.gain": [-1, 0]}}"#, #"a range needs the row's "seed""#),
            (#"{"input": "\#(inputs[0])", "set": {"gain.nope": 1}}"#, "gain.nope"),
        ] {
            try row.write(toFile: manifest, atomically: false, encoding: .utf8)
            let refused = try runExecutable(["render", chain, "--manifest", manifest, "--output-dir", folder.file("refused")])
            #expect(refused.status == 1, "\(row)")
            #expect(refused.errors.contains(message), "\(refused.errors)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("refused")) || folder.contents("refused").isEmpty)
        }
    }
}
