import AUFiles
import AUMIDI
import Foundation
import AUTestSupport

/// The `fluidsynth` command-line tool (Debian's fluidsynth), FluidSynth's own player: the
/// reference the sampler is measured against.
enum FluidSynthTool {
    static let path = "/usr/bin/fluidsynth"
    static var installed: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// One note of `key` for 2.5 s at velocity 100 on channel 1 after a program change to
    /// `program`, rendered by `fluidsynth -ni -F` from the GM bank at 48 kHz in 32-bit float,
    /// reverb and chorus off: the two channels, left and right.
    static func render(key: UInt8, program: UInt8, in folder: URL) throws -> [[Float]] {
        var sequence = MusicSequence()
        sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 120)
        var track = MusicTrack()
        track.addMIDIChannelEvent(at: 0, .programChange(channel: 0, program: program))
        track.addMIDINoteEvent(at: 0, MIDINoteMessage(channel: 0, note: key, velocity: 100, duration: 5))
        sequence.tracks = [track]
        let song = folder.appendingPathComponent("note.mid").path, output = folder.appendingPathComponent("fluidsynth.wav").path
        try sequence.write(to: song, overwrite: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-ni", "-R", "0", "-C", "0", "-r", "48000", "-O", "float", "-T", "wav", "-F", output, generalMIDIBank, song]
        // Its SDL2 audio driver's settings start SDL's audio, whose PulseAudio backend makes
        // a runtime folder in TMPDIR (pulse-…) and leaves it there: SDL's dummy driver makes none.
        process.environment = ProcessInfo.processInfo.environment.merging(["SDL_AUDIODRIVER": "dummy"]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            throw ToolFailure(description: "fluidsynth did not finish within 60 s")
        }
        guard process.terminationStatus == 0 else { throw ToolFailure(description: "fluidsynth exited with \(process.terminationStatus)") }
        let audio = try AudioFileReader(path: output).readAll()
        return (0..<audio.channelCount).map { Array(audio.buffers()[$0]) }
    }

    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
    }
}
