import AUCore
import AUHost
import AUPresets
import AUTestSupport
import Foundation
import Testing

/// A seeded fuzzer over the live command channel: random lines and valid commands with
/// mutated words (huge numbers, NaN and infinities, unicode, control characters, very long
/// words, paths leading out of the save folder) go through `ControlCommand(parsing:)` and
/// through a ``ChainSession`` over a real small chain, whose `reply(to:)` is what the
/// channel calls. Every line gets exactly one reply line starting `ok` or `error:`; no
/// trap; `save` writes into the session's save folder only. A few seconds by default;
/// `AUHOST_FUZZ_ITERATIONS=N` runs N lines (and `AUHOST_FUZZ_SEED` another seed).
@Suite(.serialized) struct ControlCommandFuzzTests {
    static let chain = """
        {"auhost": 1, "name": "Fuzz",
         "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}, {"id": "comp", "unit": "aufx:comp:AUHs"}],
         "chain": ["eq", "comp"]}
        """

    static let valid = [
        "set comp threshold -12", "get comp threshold", "get eq gain", "bypass eq on", "bypass comp off",
        "preset eq Bass", "meters", "status", "help", "save fuzz.json", "save fuzz.json --force", "save sub/fuzz.json",
        "set eq 0 3", "get comp 1",
    ]

    static let words = [
        "nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e308", "-1e308", "1e400", "5e-324", "0x1p1024",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "4294967295", "-0",
        "..", "../escape.json", "/tmp/auhost-fuzz-escape.json", "/etc/passwd", "sub/../../escape.json", "~/escape.json",
        "./", "/", ".", "..\u{0}", "a\u{0}b", "\u{7F}", "\u{1B}[2J", "\r", "\u{85}", "\u{2028}", "é", "名前", "🎛️", "\u{301}",
        "\u{FEFF}", "--force", "on", "off", "ON", "comp", "eq", "input", "output", "threshold", "%s%n", "\\", "\"",
    ]

    /// One line: a valid command with a word replaced or added, or random characters.
    static func line(using random: inout Fuzz.SeededGenerator) -> String {
        func word() -> String {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: return String(repeating: "x", count: Int.random(in: 1_000...100_000, using: &random))
            case 1: return String((0..<Int.random(in: 1...12, using: &random)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &random))) })
            case 2: return String(String.UnicodeScalarView((0..<Int.random(in: 1...6, using: &random)).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &random)) }))
            case 3: return String(Double.random(in: -1e300...1e300, using: &random))
            default: return words.randomElement(using: &random)!
            }
        }
        var parts = valid.randomElement(using: &random)!.split(separator: " ").map(String.init)
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1, 2: parts[Int.random(in: 0..<parts.count, using: &random)] = word()
        case 3: parts.insert(word(), at: Int.random(in: 0...parts.count, using: &random))
        case 4: parts.removeLast()
        default: parts = (0..<Int.random(in: 0...5, using: &random)).map { _ in word() }
        }
        let separator = ["\t", " ", "  "].randomElement(using: &random)!
        return parts.joined(separator: separator)
    }

    /// A session over the started chain; the caller disposes of its chain.
    static func session(saveFolder: URL) throws -> ChainSession {
        let registry = HostRegistry.make()
        let chain = try ChainGraph(try loadPreset(Self.chain, registry: registry), registry: registry, sampleRate: 48_000)
        try chain.graph.start()
        return ChainSession(chain: chain, registry: registry, saveFolder: saveFolder)
    }

    /// The names (recursively) under `folder`, but not inside build products and Git's
    /// store (`.build`, `.git`), which other tests and tools change meanwhile.
    static func listing(_ folder: String) -> Set<String> {
        guard let walk = FileManager.default.enumerator(at: URL(fileURLWithPath: folder), includingPropertiesForKeys: nil) else { return [] }
        var names: Set<String> = []
        let base = URL(fileURLWithPath: folder).standardizedFileURL.path + "/"
        for case let url as URL in walk {
            if [".build", ".git"].contains(url.lastPathComponent) { walk.skipDescendants(); continue }
            names.insert(String(url.standardizedFileURL.path.dropFirst(base.count)))
        }
        return names
    }

    @Test func everyLineGetsOneReplyAndSavesStayInTheFolder() throws {
        var (iterations, random, isLong) = Fuzz.settings(defaultIterations: 1_000, defaultSeed: 14)
        let root = try TemporaryFolder(prefix: "auhost-control-fuzz")
        defer { root.remove() }
        let saves = root.url.appendingPathComponent("saves")
        try FileManager.default.createDirectory(at: saves.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let session = try Self.session(saveFolder: saves)
        defer { session.chain.dispose() }
        let current = FileManager.default.currentDirectoryPath
        let before = (cwd: Self.listing(current), root: Self.listing(root.path), temporary: Set((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []))

        var outcomes: [String: Int] = [:]
        for _ in 0..<iterations {
            let line = Self.line(using: &random)
            let parsed: Bool
            do { _ = try ControlCommand(parsing: line); parsed = true } catch { parsed = false }
            let (reply, _) = session.reply(to: line)
            // Bytes, as a client reads them: a reply naming a file that starts with a combining
            // mark ("error: \u{301}: ...") does not begin with the Character "error: ".
            #expect(reply.utf8.starts(with: "ok".utf8) || reply.utf8.starts(with: "error: ".utf8), "\(line.prefix(200).debugDescription): \(reply.prefix(200))")
            #expect(!reply.contains("\n"), "\(line.prefix(200).debugDescription) got a reply of several lines")
            let verb = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { $0.lowercased() } ?? ""
            let known = ["set", "get", "bypass", "preset", "meters", "status", "save", "help", "quit"].contains(verb) ? verb : "other"
            outcomes["\(known) \(reply.utf8.starts(with: "ok".utf8) ? "ok" : parsed ? "error" : "unparsed")", default: 0] += 1
        }
        #expect(outcomes.values.reduce(0, +) == iterations)
        // Nothing new outside the save folder: the current directory, the rest of the test's
        // folder and the temporary folder are as they were.
        #expect(Self.listing(current) == before.cwd)
        #expect(Self.listing(root.path).filter { !$0.hasPrefix("saves") } == before.root.filter { !$0.hasPrefix("saves") })
        let temporary = Set((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [])
        #expect(temporary.subtracting(before.temporary).filter { $0.contains("escape") || $0.contains("fuzz.json") }.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/auhost-fuzz-escape.json"))
        if isLong { print(Fuzz.report("control command fuzz", iterations: iterations, outcomes) + "; saved \(Self.listing(saves.path).count) files") }
    }

    /// The fuzzer's finding: a save name holding a line break was echoed into the `ok`
    /// reply, which then spanned two lines (the client reads one). Replies are one line.
    @Test func aNameWithALineBreakStillGetsOneReplyLine() throws {
        let saves = try TemporaryFolder(prefix: "auhost-control-fuzz")
        defer { saves.remove() }
        let session = try Self.session(saveFolder: saves.url)
        defer { session.chain.dispose() }
        let reply = session.reply(to: "save two\nlines.json").reply
        #expect(reply.hasPrefix("ok") && !reply.contains("\n"), "\(reply.debugDescription)")
    }
}
