import AUHost
import Foundation

/// `--manifest ROWS.jsonl`: one JSON object per line, `{"input": PATH, "output": PATH,
/// "set": {"NODE.PARAM": VALUE}, "seed": N}` (only `input` required). A VALUE is a number or
/// a name, set as `--set` sets it, or a `[LOW, HIGH]` range from which the row's `seed` draws
/// a number uniformly (randomized augmentation, reproducible: the same seed, the same value).
/// - Thread: [control]
enum ManifestRows {
    static let keys: Set<String> = ["input", "output", "set", "seed"]

    static func read(_ path: String) throws(CLIError) -> [RenderBatchOptions.Row] {
        var rows: [RenderBatchOptions.Row] = []
        for (number, line) in try RenderBatchOptions.lines(of: path) {
            func problem(_ message: String) -> CLIError { CLIError("\(path):\(number): \(message)") }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                throw problem("not a JSON object; expected {\"input\": PATH, \"output\": PATH, \"set\": {...}, \"seed\": N} on each line")
            }
            if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
                throw problem("unknown key '\(unknown)'; expected input, output, set, seed")
            }
            guard let input = object["input"] as? String, !input.isEmpty else { throw problem("expected \"input\": a path") }
            var row = RenderBatchOptions.Row(input: input)
            if let output = object["output"] {
                guard let text = output as? String, !text.isEmpty else { throw problem("\"output\": expected a path") }
                row.output = text
            }
            var seed: UInt64?
            if let given = object["seed"] {
                guard let number = given as? NSNumber, number.doubleValue == Double(number.int64Value), number.int64Value >= 0 else {
                    throw problem("\"seed\": expected a whole number, 0 or more")
                }
                seed = UInt64(number.int64Value)
            }
            if let sets = object["set"] {
                guard let sets = sets as? [String: Any] else { throw problem("\"set\": expected an object of \"NODE.PARAM\": VALUE") }
                for (target, value) in sets.sorted(by: { $0.key < $1.key }) {
                    row.sets.append("\(target)=\(try text(of: value, target: target, seed: seed, problem: problem))")
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// A `set` value as `--set` takes it; a range drawn from the seed.
    private static func text(of value: Any, target: String, seed: UInt64?, problem: (String) -> CLIError) throws(CLIError) -> String {
        if let name = value as? String { return name }
        if let range = value as? [NSNumber], range.count == 2 {
            let (low, high) = (range[0].doubleValue, range[1].doubleValue)
            guard low.isFinite, high.isFinite, low <= high else { throw problem("\"set\": \(target): expected a range [LOW, HIGH] with LOW <= HIGH") }
            guard let seed else { throw problem("\"set\": \(target): a range needs the row's \"seed\"") }
            return String(low + (high - low) * uniform(seed: seed, name: target))
        }
        if let number = value as? NSNumber { return number.stringValue }
        throw problem("\"set\": \(target): expected a number, a name or a range [LOW, HIGH]")
    }

    /// A number in [0, 1) from the seed and the parameter's name (SplitMix64): the same for
    /// the same pair on every machine.
    static func uniform(seed: UInt64, name: String) -> Double {
        var state = seed ^ BatchShard.hash(name)
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        mixed ^= mixed >> 31
        return Double(mixed >> 11) / Double(1 << 53)
    }
}
