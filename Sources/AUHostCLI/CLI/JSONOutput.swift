import AUHost
import Foundation

/// Encodes command output as stable JSON: sorted keys, pretty-printed, slashes unescaped.
/// - Thread: [control]
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws(CLIError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw CLIError("could not encode JSON output: \(error)")
        }
    }
}
