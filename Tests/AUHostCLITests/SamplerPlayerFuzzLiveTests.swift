import AUTestSupport
import Foundation
import Testing

/// Seeded live command sequences against a running sampler and player (issue 35): `auhost
/// play SONG --preset SAMPLER --loop` gets bank loads (the GM bank, a FIFO, a missing file,
/// a file that is no SoundFont), seeks (inside the song, past its end, malformed), play and
/// stop, program and gain changes and malformed commands, in a random order. Every line gets
/// one reply, `ok …` or `error: …`, within the rig's deadline; the run then quits with
/// status 0. AUHOST_FUZZ_ITERATIONS sets the commands (the long mode prints the outcomes).
@Suite(.serialized) struct SamplerPlayerFuzzLiveTests {
    @Test("seeded live commands against the sampler and the player: one reply each, no signal, no hang, a clean quit",
          .enabled(if: SamplerPresetTests.gm != nil, "no GM bank (fluid-soundfont-gm)"))
    func liveCommandSequences() throws {
        let (iterations, seeded, isLong) = Fuzz.settings(defaultIterations: TestLength.choose(short: 40, long: 400), defaultSeed: 3_535)
        var random = seeded
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SamplerPresetTests.chord(folder.file("chord.mid"))
        try #require(mkfifo(folder.file("fifo.sf2"), 0o600) == 0)
        try Data("RIFF0000WAVEfmt ".utf8).write(to: URL(fileURLWithPath: folder.file("fake.sf2")))
        let rig = try LiveRig(preset: SamplerPresetTests.sampler(#", "soundbank": "gm""#), song: folder.file("chord.mid"), extraArguments: ["--loop"])
        defer { rig.tearDown() }
        try #require(rig.waitForStandardError("auhost: playing"), "\(rig.standardError)")
        let malformed = ["seek 99999", "seek 9223372036854775807", "seek 0", "seek -1", "seek 1:0", "seek x"]
        let others = ["get gm gain", "bogus", "load", "load gm", "set gm", "seek", "save ."]
        let gains = ["-12", "0", "nan", "inf", "1e309", "-200"]
        func command() -> String {
            switch Int.random(in: 0..<13, using: &random) {
            case 0: "load gm gm"
            case 1: "set gm soundbank gm"
            case 2: "load gm \(folder.file("fifo.sf2"))"
            case 3: "load gm \(folder.file("fake.sf2"))"
            case 4: "load gm \(folder.file("missing.sf2"))"
            case 5: "seek \(Int.random(in: 1...3, using: &random)):\(Int.random(in: 1...4, using: &random))"
            case 6: malformed[Int.random(in: 0..<malformed.count, using: &random)]
            case 7: "play"
            case 8: "stop"
            case 9: "status"
            case 10: "set gm program \(Int.random(in: -1...130, using: &random))"
            case 11: "set gm gain \(gains[Int.random(in: 0..<gains.count, using: &random)])"
            default: others[Int.random(in: 0..<others.count, using: &random)]
            }
        }
        var outcomes: [String: Int] = [:]
        for _ in 0..<iterations {
            let command = command()
            let reply = try rig.send(command)
            #expect(reply.hasPrefix("ok") || reply.hasPrefix("error: "), "\(command): \(reply)")
            outcomes[reply.hasPrefix("ok") ? "ok" : "error", default: 0] += 1
        }
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit() == 0, "\(rig.standardError)")
        if isLong { print(Fuzz.report("live sampler and player commands", iterations: iterations, outcomes)) }
    }
}
