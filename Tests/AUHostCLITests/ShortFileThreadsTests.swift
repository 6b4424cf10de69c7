import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// A file shorter than ``RenderSettings/threadedSeconds`` renders on one thread when
/// `--threads` is not given (its threads would cost more than they save), on the threads
/// asked for when it is, and a long file on the machine's threads; the samples are the same.
@Suite struct ShortFileThreadsTests {
    @Test("RenderSettings.forFile: one thread for a short file with the machine's threads; the threads asked for, or a long file's, untouched")
    func settingsForAFile() {
        var settings = RenderSettings()
        settings.parallelism = RenderParallelism(threads: 4).pipeliningOverEveryThread
        settings.overlapsFileWork = true
        settings.threadsAreMachineDefault = true
        let short = settings.forFile(seconds: RenderSettings.threadedSeconds - 0.01)
        #expect(short.parallelism == .singleThreaded && !short.overlapsFileWork)
        let long = settings.forFile(seconds: RenderSettings.threadedSeconds)
        #expect(long.parallelism == settings.parallelism && long.overlapsFileWork)
        settings.threadsAreMachineDefault = false
        let asked = settings.forFile(seconds: 1)
        #expect(asked.parallelism == settings.parallelism && asked.overlapsFileWork)
    }

    /// The reference chain's pipeline delays its output by one slice (the summary line's
    /// latency: 64 frames of the plugins plus a 64-frame slice), which one thread does not.
    @Test("auhost render of a 1 s file: one thread without --threads (latency 64 frames), the pipeline with --threads 2 (128), the same samples")
    func shortFileRendersOnOneThread() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in.wav")
        try writeAudio(input, sampleRate: 48_000, channels: 2, frames: 48_000) { channel, frame in
            Float(0.4 * sin(2 * .pi * 440 * Double(frame) / 48_000 + Double(channel)))
        }
        let preset = ShippedPresets.path("reference.json")
        let defaults = render([preset, input, "-o", folder.file("default.wav"), "--block", "64", "--bit-depth", "32f"])
        let two = render([preset, input, "-o", folder.file("two.wav"), "--block", "64", "--bit-depth", "32f", "--threads", "2"])
        #expect(defaults.status == 0 && two.status == 0, "\(defaults.errors)\(two.errors)")
        #expect(defaults.output.contains("latency 64 frames compensated"), "\(defaults.output)")
        #expect(two.output.contains("latency 128 frames compensated"), "\(two.output)")
        let a = try readAudio(folder.file("default.wav")).samples, b = try readAudio(folder.file("two.wav")).samples
        #expect(a.count == b.count && zip(a, b).allSatisfy { zip($0.0, $0.1).allSatisfy { $0.0.bitPattern == $0.1.bitPattern } })
    }
}
