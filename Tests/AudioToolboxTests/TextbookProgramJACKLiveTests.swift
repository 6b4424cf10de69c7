import AUJACK
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// The textbook programs (TextbookProgramTests) through JACK, the default device: each run
/// with no AUHOST_DEVICE against a jackd of the test's own (dummy driver, 44.1 kHz, 512
/// frames), its `AudioToolbox:out_1` recorded by a JACK client from when the port appears.
/// The recording's start is wherever the connection was made, so each check looks at the
/// windows where the program's sound is: the tone at its pitch and level (Goertzel over 4096
/// frames, within 0.03) in at least a second's worth of windows.
@Suite(.serialized) struct TextbookProgramJACKLiveTests {
    /// Builds Examples/`name` (with the input file's path), runs it through JACK and returns
    /// what `AudioToolbox:out_1` played, and whether the program ended well and was connected.
    static func record(_ name: String) throws -> (samples: [Float], ended: Bool, connected: Bool) {
        let folder = try AudioToolboxBuild.scratchFolder("jack-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input.wav")
        try TextbookProgramTests.writeInput(input)
        let program = try PlaySequenceExampleTests.compileExample(name, into: folder, defines: ["kInputFileLocation=CFSTR(\"\(input.path)\")"])
        return try recordThroughJACK(program, directory: folder)
    }

    /// Runs `program` (in `directory`) with no AUHOST_DEVICE against a jackd of its own (dummy
    /// driver, 44.1 kHz, 512 frames) and records `AudioToolbox:out_1` from when it appears.
    static func recordThroughJACK(_ program: URL, directory: URL? = nil) throws -> (samples: [Float], ended: Bool, connected: Bool) {
        let run = try runThroughJACK(program, directory: directory)
        return (run.samples, run.ended, run.connected)
    }

    /// What a program did through JACK (``runThroughJACK(_:directory:feedingSine:)``).
    struct JACKProgramRun {
        /// `AudioToolbox:out_1`, recorded from when it appeared.
        let samples: [Float]
        /// Whether the program ended, with status 0, within 30 s.
        let ended: Bool
        /// Whether every port was connected while it ran.
        let connected: Bool
        /// Its standard output.
        let output: String
    }

    /// Runs `program` (in `directory`) with no AUHOST_DEVICE against a jackd of its own (dummy
    /// driver, 44.1 kHz, 512 frames); a client of the test records `AudioToolbox:out_1` from
    /// when it appears and, given a frequency, feeds `AudioToolbox:in_1` and `in_2` a sine of it
    /// at 0.5.
    static func runThroughJACK(_ program: URL, directory: URL? = nil, feedingSine frequency: Double? = nil) throws -> JACKProgramRun {
        let rate = 44_100.0
        let server = try JACKTestServer(periodFrames: 512, sampleRate: Int(rate))
        defer { server.stop() }
        let recording = Recording(capacity: Int(rate) * 8)
        let phase = Mutex<Double>(0)
        let tester = try JACKTestClient(
            name: "recorder", serverName: server.name, captureChannels: 1, playbackChannels: frequency == nil ? 0 : 2
        ) { frames, capture, playback in
            recording.append(capture[0])
            guard let frequency else { return }
            phase.withLock { phase in
                for frame in 0..<frames {
                    let sample = Float(0.5 * sin(phase))
                    playback.channelPointers[0][frame] = sample
                    playback.channelPointers[1][frame] = sample
                    phase += 2 * .pi * frequency / rate
                }
            }
        }
        try tester.start()
        defer { tester.stop() }

        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("jack-program-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out")
        try #require(FileManager.default.createFile(atPath: outputFile.path, contents: nil), "cannot create \(outputFile.path)")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let process = Process()
        process.executableURL = program
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server.name
        environment["AUHOST_DEVICE"] = nil
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        try ChildProcess.launch(process)
        var wires = [("AudioToolbox:out_1", "recorder:in_1")]
        if frequency != nil { wires += [("recorder:out_1", "AudioToolbox:in_1"), ("recorder:out_2", "AudioToolbox:in_2")] }
        var connected = false
        for _ in 0..<500 where !connected && process.isRunning {
            if tester.client.sources(matching: "AudioToolbox:out_1", kind: .audio).contains("AudioToolbox:out_1") {
                connected = wires.allSatisfy { (try? tester.client.connect($0.0, to: $0.1)) != nil }
            }
            if !connected { Thread.sleep(forTimeInterval: 0.01) }
        }
        let exited = ChildProcess.waitForExit(process, timeout: 30)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return JACKProgramRun(samples: recording.array, ended: exited && process.terminationStatus == 0, connected: connected, output: output)
    }

    /// How many 4096-frame windows (hop 2048) hold `frequency` at `level` (within 0.03).
    static func windowsWithTone(_ samples: [Float], frequency: Double, level: Double) -> Int {
        toneAmplitudes(samples, frequency: frequency).filter { abs($0 - level) < 0.03 }.count
    }

    /// The amplitude of `frequency` in each 4096-frame window (hop 2048).
    static func toneAmplitudes(_ samples: [Float], frequency: Double) -> [Double] {
        stride(from: 0, to: samples.count - 4096, by: 2048).map { start in
            Goertzel.amplitude(of: frequency, in: Array(samples[start..<(start + 4096)]), sampleRate: 44_100)
        }
    }

    /// What a failed count says: the frames recorded and each window's amplitude, so that a
    /// late start (leading silence) tells itself apart from dropouts (dips between tones).
    static func toneReport(_ samples: [Float], frequency: Double) -> Comment {
        let amplitudes = toneAmplitudes(samples, frequency: frequency).map { String(format: "%.2f", $0) }.joined(separator: " ")
        return "\(samples.count) frames recorded; \(Int(frequency)) Hz per window: \(amplitudes)"
    }

    /// CH07_AUGraphSineWave's pattern: 880 Hz at 0.5 through JACK for over a second of windows.
    @Test func theDefaultOutputCallbackPlaysThroughJACK() throws {
        let (samples, ended, connected) = try Self.record("TextbookSineWave")
        #expect(ended && connected)
        #expect(Self.windowsWithTone(samples, frequency: 880, level: 0.5) >= 22, Self.toneReport(samples, frequency: 880))
    }

    /// CH07_AUGraphPlayer's pattern: the file's 330 Hz at its level through JACK.
    @Test func theFilePlayerGraphPlaysThroughJACK() throws {
        let (samples, ended, connected) = try Self.record("TextbookFilePlayer")
        #expect(ended && connected)
        #expect(Self.windowsWithTone(samples, frequency: TextbookProgramTests.toneFrequency, level: TextbookProgramTests.toneLevel) >= 22,
                Self.toneReport(samples, frequency: TextbookProgramTests.toneFrequency))
    }

    /// PlaySoftMIDI's pattern: DLSSynth → PeakLimiter → DefaultOutput through JACK; each of its
    /// four notes is heard: some window where its fundamental is over 0.01 and over its
    /// semitone neighbours (more than 4×).
    @Test func theSoftSynthGraphPlaysThroughJACK() throws {
        let (samples, ended, connected) = try Self.record("TextbookSoftMIDI")
        #expect(ended && connected)
        func amplitude(_ key: Double, _ window: [Float]) -> Double {
            Goertzel.amplitude(of: 440 * pow(2, (key - 69) / 12), in: window, sampleRate: 44_100)
        }
        let windows = stride(from: 0, to: samples.count - 8192, by: 4096).map { Array(samples[$0..<($0 + 8192)]) }
        for key in [60.0, 64, 67, 72] {
            let heard = windows.contains { window in
                let fundamental = amplitude(key, window)
                return fundamental > 0.01 && fundamental > 4 * amplitude(key - 1, window) && fundamental > 4 * amplitude(key + 1, window)
            }
            #expect(heard, "note \(Int(key)) in \(samples.count) frames")
        }
    }

    /// C: a render callback (`tone`) of 1 kHz at 0.5 on two channels, computed at 48 kHz.
    static let toneAt48kHz = #"""
        static double phase;
    static OSStatus tone(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus, UInt32 frames, AudioBufferList *data) {
        for (UInt32 i = 0; i < frames; i++) {
            Float32 sample = (Float32)(0.5 * sin(phase));
            ((Float32 *)data->mBuffers[0].mData)[i] = sample;
            ((Float32 *)data->mBuffers[1].mData)[i] = sample;
            phase += 2 * M_PI * 1000.0 / 48000.0;
        }
        return noErr;
    }
    """#

    /// `toneAt48kHz` resampled to the 44.1 kHz server: 1 kHz at 0.5 (within 0.03) in over a
    /// second of windows, and nothing (under 0.03) at 919 Hz, what 48 kHz samples played at
    /// 44.1 kHz would sound, in every one of them.
    static func expectResampledTone(_ samples: [Float]) {
        let windows = stride(from: 0, to: samples.count - 4096, by: 2048).map { Array(samples[$0..<($0 + 4096)]) }
        let toned = windows.filter { abs(Goertzel.amplitude(of: 1000, in: $0, sampleRate: 44_100) - 0.5) < 0.03 }
        #expect(toned.count >= 22, "\(toned.count) windows of 1 kHz at 0.5 in \(samples.count) frames")
        #expect(toned.allSatisfy { Goertzel.amplitude(of: 1000 * 44_100 / 48_000, in: $0, sampleRate: 44_100) < 0.03 })
    }

    /// A program at 48 kHz on a 44.1 kHz server: the default output unit alone, its input set
    /// to 48 kHz float stereo (read back as set), a callback of 1 kHz at 0.5 computed at 48 kHz.
    /// The recording has 1 kHz at 0.5 (within 0.03) in over a second of windows, and what an
    /// unresampled stream would sound (1 kHz × 44.1/48 ≈ 919 Hz) under 0.03 in every one of them.
    static let rateClient = #"""
    #include <AudioToolbox/AudioToolbox.h>
    #include <math.h>
    """# + "\n" + toneAt48kHz + "\n" + #"""
    int main(void) {
        AudioComponentDescription description = {kAudioUnitType_Output, kAudioUnitSubType_DefaultOutput, kAudioUnitManufacturer_Apple, 0, 0};
        AudioUnit output;
        if (AudioComponentInstanceNew(AudioComponentFindNext(NULL, &description), &output)) return 1;
        AudioStreamBasicDescription format = {48000, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, 4, 1, 4, 2, 32, 0};
        if (AudioUnitSetProperty(output, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format)) return 2;
        AudioStreamBasicDescription back = {0};
        UInt32 size = sizeof back;
        if (AudioUnitGetProperty(output, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &back, &size) || back.mSampleRate != 48000) return 3;
        AURenderCallbackStruct callback = {tone, NULL};
        if (AudioUnitSetProperty(output, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof callback)) return 4;
        if (AudioUnitInitialize(output) || AudioOutputUnitStart(output)) return 5;
        sleep(2);
        AudioOutputUnitStop(output);
        AudioComponentInstanceDispose(output);
        return 0;
    }
    """#

    @Test func aProgramAtAnotherRateIsResampledToTheServers() throws {
        let folder = try AudioToolboxBuild.scratchFolder("jack-rate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (samples, ended, connected) = try Self.recordThroughJACK(try CClient.compile(Self.rateClient, in: folder))
        #expect(ended && connected)
        Self.expectResampledTone(samples)
    }

    /// CH05_Player's pattern: the file through an output audio queue on JACK.
    @Test func theQueuePlayerPlaysThroughJACK() throws {
        let (samples, ended, connected) = try Self.record("TextbookQueuePlayer")
        #expect(ended && connected)
        #expect(Self.windowsWithTone(samples, frequency: TextbookProgramTests.toneFrequency, level: TextbookProgramTests.toneLevel) >= 22,
                Self.toneReport(samples, frequency: TextbookProgramTests.toneFrequency))
    }
}
