import AUHost
import Foundation

/// `auhost midi info SONG.mid`: what a Standard MIDI File holds, read into a
/// ``MusicSequence`` (AUMIDI).
/// - Thread: [control]
enum MIDICommand: Command {
    static let name = "midi"
    static let summary = "describe a Standard MIDI File: tracks, channels, programs, tempo and meter, length"
    static let help = """
        usage: auhost midi info SONG.mid [--json]

        Reads a Standard MIDI File (format 0, 1 or 2) and describes it: its format and time
        division; each track with its name, instrument, channels, programs and event counts;
        the tempo map and the time-signature map (each change at its beat and bar); and the
        song's length in beats, bars and seconds. A malformed file is one error naming the
        byte where it went wrong and what was expected there.

          --json   a JSON object (see docs/CLI.md)

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let json = arguments.flag("--json")
        let positionals = try arguments.finish(positionals: 2...2, names: "'info' and a MIDI file")
        guard positionals[0] == "info" else { throw .usage("midi takes 'info', not '\(positionals[0])'", command: name) }
        let path = positionals[1]
        let bytes: [UInt8], sequence: MusicSequence
        do {
            bytes = try MusicSequence.fileBytes(atPath: path)
            sequence = try MusicSequence.load(bytes: bytes, path: path)
        } catch {
            throw CLIError(error.description)
        }
        let format = MIDIFileFormat(headerOf: bytes).map { Int($0.rawValue) } ?? 0
        let summary = MIDIFileSummary(sequence, format: format)
        if json {
            context.output.line(try JSONOutput.encode(summary))
        } else {
            context.output.write(summary.text(file: path))
        }
        return 0
    }
}
