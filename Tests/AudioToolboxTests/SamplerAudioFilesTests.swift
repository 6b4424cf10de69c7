import AudioToolbox
import Foundation
import Testing

/// `kAUSamplerProperty_LoadAudioFiles` (and `LoadInstrument` with an audio file) on Apple's
/// sampler: each file becomes a zone on the key of its instrument chunk, else on consecutive
/// keys from 60, and plays its samples there at their pitch; the state carries the zones.
@Suite struct SamplerAudioFilesTests {
    /// A 16-bit mono WAV of `seconds` of a sine at `frequency` and `amplitude`, 44.1 kHz,
    /// with a `smpl` chunk naming `unityNote` when given.
    static func writeSine(_ url: URL, frequency: Double, amplitude: Double, seconds: Double = 1, unityNote: UInt32? = nil) throws {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        let rate = 44_100, frames = Int(seconds * Double(rate))
        var data: [UInt8] = []
        for frame in 0..<frames { data += le(Int16((amplitude * 32_767 * sin(2 * .pi * frequency * Double(frame) / Double(rate))).rounded())) }
        var body = Array("WAVE".utf8)
        body += Array("fmt ".utf8) + le(UInt32(16)) + le(UInt16(1)) + le(UInt16(1)) + le(UInt32(rate)) + le(UInt32(rate * 2)) + le(UInt16(2)) + le(UInt16(16))
        if let unityNote {
            // manufacturer, product, sample period, MIDI unity note, pitch fraction, SMPTE format and offset, loops, sampler data
            body += Array("smpl".utf8) + le(UInt32(36)) + [0, 0, 0, 0, 0, 0, 0, 0] + le(UInt32(22_676)) + le(unityNote) + [UInt8](repeating: 0, count: 20)
        }
        body += Array("data".utf8) + le(UInt32(data.count)) + data
        try Data(Array("RIFF".utf8) + le(UInt32(body.count)) + body).write(to: url)
    }

    /// Sets LoadAudioFiles to a CFArray of `urls`.
    static func loadAudioFiles(_ unit: AudioUnit, _ urls: [AnyObject]) -> OSStatus {
        let array = urls as NSArray
        var reference: UnsafeRawPointer? = UnsafeRawPointer(Unmanaged.passUnretained(array).toOpaque())
        return withExtendedLifetime(array) {
            AudioUnitSetProperty(unit, kAUSamplerProperty_LoadAudioFiles, kAudioUnitScope_Global, 0, &reference, UInt32(MemoryLayout<UnsafeRawPointer>.size))
        }
    }

    /// The sampler's output rate.
    static func sampleRate(_ unit: AudioUnit) -> Double {
        var rate = 0.0
        var size = UInt32(8)
        _ = AudioUnitGetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, &size)
        return rate
    }

    /// The sine at `frequency` fitted to `samples` (least squares): its amplitude, and the
    /// RMS of what is left, relative to that amplitude (infinite for silence).
    static func fit(_ samples: ArraySlice<Float>, frequency: Double, sampleRate: Double) -> (amplitude: Double, residual: Double) {
        let n = Double(samples.count)
        var a = 0.0, b = 0.0
        for (index, sample) in samples.enumerated() {
            let phase = 2 * .pi * frequency * Double(index) / sampleRate
            a += Double(sample) * cos(phase)
            b += Double(sample) * sin(phase)
        }
        a *= 2 / n
        b *= 2 / n
        var left = 0.0
        for (index, sample) in samples.enumerated() {
            let phase = 2 * .pi * frequency * Double(index) / sampleRate
            let rest = Double(sample) - a * cos(phase) - b * sin(phase)
            left += rest * rest
        }
        let amplitude = (a * a + b * b).squareRoot()
        // Silence is no fit.
        return (amplitude, amplitude < 1e-6 ? .infinity : (left / n).squareRoot() / amplitude)
    }

    /// Plays `key` at full velocity on a fresh cycle and returns 8192 frames from 2048 frames
    /// after its note-on (past FluidSynth's attack).
    static func playKey(_ unit: AudioUnit, _ key: UInt32, from sampleTime: inout Double) -> ArraySlice<Float> {
        #expect(MusicDeviceMIDIEvent(unit, 0x90, key, 127, 0) == noErr)
        let samples = SequenceRenderTests.render(unit, from: sampleTime, frames: 10_240)
        sampleTime += Double(samples.count)
        #expect(MusicDeviceMIDIEvent(unit, 0x80, key, 0, 0) == noErr)
        sampleTime += Double(SequenceRenderTests.render(unit, from: sampleTime, frames: 4_096).count)   // its release
        return samples.count >= 10_240 ? samples[2_048..<10_240] : []
    }

    @Test func eachFileIsAZoneOnItsKeyPlayingItsSamples() throws {
        let folder = try AudioToolboxBuild.scratchFolder("sampler-audio-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.wav"), b = folder.appendingPathComponent("b.wav"), c = folder.appendingPathComponent("c.wav")
        try Self.writeSine(a, frequency: 440, amplitude: 0.5)
        try Self.writeSine(b, frequency: 660, amplitude: 0.25, unityNote: 72)
        try Self.writeSine(c, frequency: 550, amplitude: 0.5)
        let unit = try MusicDeviceFunctionTests.synth()
        defer { AudioComponentInstanceDispose(unit) }
        #expect(Self.loadAudioFiles(unit, [a as NSURL, b as NSURL, c as NSURL]) == noErr)
        let rate = Self.sampleRate(unit)
        try #require(rate > 0)
        var time = 0.0
        var results: [(key: UInt32, gain: Double)] = []
        // a: key 60 (no chunk), b: key 72 (its smpl chunk), c: key 61 (the next key from 60).
        for (key, frequency, amplitude) in [(UInt32(60), 440.0, 0.5), (72, 660, 0.25), (61, 550, 0.5)] {
            let played = Self.playKey(unit, key, from: &time)
            try #require(played.count == 8_192)
            let (level, residual) = Self.fit(played, frequency: frequency, sampleRate: rate)
            #expect(residual < 0.02, "key \(key): the file's \(frequency) Hz sine, \(residual * 100) % of it left over")
            results.append((key, level / amplitude))
        }
        // One gain for every zone: each file's level as it is in the file.
        let gains = results.map(\.gain)
        #expect(gains.allSatisfy { abs($0 / gains[0] - 1) < 0.02 }, "the level of each file relative to the file's: \(results)")
        #expect(gains[0] > 0.05, "the zones sound: \(results)")
        let silent = Self.playKey(unit, 62, from: &time)
        #expect(silent.map(abs).max() ?? 1 < 1e-6, "no zone on key 62")

        // The state carries the zones: a new sampler given the ClassInfo plays them, and the
        // temporary SoundFont goes with the unit that made it.
        var bankURL: Unmanaged<CFURL>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        #expect(AudioUnitGetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &bankURL, &size) == noErr)
        let bankPath = try #require(bankURL?.takeRetainedValue()).path ?? ""
        #expect(FileManager.default.fileExists(atPath: bankPath))
        var saved: Unmanaged<AnyObject>?
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &saved, &size) == noErr)
        let info = try #require(saved)
        defer { info.release() }
        let other = try MusicDeviceFunctionTests.synth()
        #expect(AudioUnitSetProperty(other, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &saved, size) == noErr)
        var otherTime = 0.0
        let restored = Self.playKey(other, 72, from: &otherTime)
        #expect(Self.fit(restored, frequency: 660, sampleRate: rate).residual < 0.02, "the restored sampler plays b on key 72")
        AudioComponentInstanceDispose(other)
        AudioComponentInstanceDispose(unit)
        #expect(!FileManager.default.fileExists(atPath: bankPath), "the temporary SoundFont is removed with its unit")
    }

    @Test func oneAudioFileAsAnInstrumentAndWrongArgumentsAreRefused() throws {
        let folder = try AudioToolboxBuild.scratchFolder("sampler-audio-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.wav")
        try Self.writeSine(a, frequency: 440, amplitude: 0.5)
        let unit = try MusicDeviceFunctionTests.synth()
        defer { AudioComponentInstanceDispose(unit) }
        var data = AUSamplerInstrumentData(fileURL: Unmanaged.passUnretained(a as CFURL), instrumentType: UInt8(kInstrumentType_Audiofile), bankMSB: 0, bankLSB: 0, presetID: 0)
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data, UInt32(MemoryLayout<AUSamplerInstrumentData>.size)) == noErr)
        var time = 0.0
        #expect(Self.fit(Self.playKey(unit, 60, from: &time), frequency: 440, sampleRate: Self.sampleRate(unit)).residual < 0.02, "the file on key 60")

        var size: UInt32 = 0
        var writable: DarwinBoolean = false
        #expect(AudioUnitGetPropertyInfo(unit, kAUSamplerProperty_LoadAudioFiles, kAudioUnitScope_Global, 0, &size, &writable) == noErr)
        #expect(Int(size) == MemoryLayout<UnsafeRawPointer>.size && writable.boolValue)
        #expect(Self.loadAudioFiles(unit, ["not a URL" as NSString]) == kAudioUnitErr_InvalidPropertyValue)
        #expect(Self.loadAudioFiles(unit, []) == kAudioUnitErr_InvalidPropertyValue)
        #expect(Self.loadAudioFiles(unit, [folder.appendingPathComponent("missing.wav") as NSURL]) == kAudioUnitErr_InvalidFilePath)
        var null: UnsafeRawPointer? = nil
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadAudioFiles, kAudioUnitScope_Global, 0, &null, 8) == kAudioUnitErr_InvalidPropertyValue)
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadAudioFiles, kAudioUnitScope_Global, 0, &null, 4) == kAudioUnitErr_InvalidPropertyValue)
        var out: UnsafeRawPointer?
        size = 8
        #expect(AudioUnitGetProperty(unit, kAUSamplerProperty_LoadAudioFiles, kAudioUnitScope_Global, 0, &out, &size) == kAudioUnitErr_InvalidProperty, "write-only")
        // The failed loads left the file playing.
        #expect(Self.fit(Self.playKey(unit, 60, from: &time), frequency: 440, sampleRate: Self.sampleRate(unit)).residual < 0.02)
    }
}
