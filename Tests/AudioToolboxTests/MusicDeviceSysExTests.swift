import AudioToolbox
import Foundation
import Testing

/// SysEx into Apple's sampler (AUHost's, FluidSynth): `MusicDeviceSysEx` from the control
/// side and `MusicTrackNewMIDIRawDataEvent` played by a MusicPlayer, through the sampler's
/// bounded SysEx queue, acting as a GM/GS sampler does (master volume; GM System On and GS
/// Reset: every controller and program back to its default). Checked by rendering.
@Suite struct MusicDeviceSysExTests {
    /// Universal Real Time master volume at `value` of 16 383.
    static func masterVolume(_ value: Int) -> [UInt8] { [0xF0, 0x7F, 0x7F, 0x04, 0x01, UInt8(value & 0x7F), UInt8(value >> 7), 0xF7] }
    static let gmSystemOn: [UInt8] = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
    static let gsReset: [UInt8] = [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }

    /// A fresh sampler that takes `midi` in a first cycle, then `sysEx` (each message sent
    /// with MusicDeviceSysEx) and middle C in the next: 16 384 frames of its left channel
    /// from there. (In one cycle SysEx goes before the MIDI events of its frame.)
    static func play(sysEx: [[UInt8]] = [], after midi: [(UInt32, UInt32, UInt32)] = []) throws -> [Float] {
        let unit = try MusicDeviceFunctionTests.synth()
        defer { AudioComponentInstanceDispose(unit) }
        for (status, data1, data2) in midi { #expect(MusicDeviceMIDIEvent(unit, status, data1, data2, 0) == noErr) }
        _ = SequenceRenderTests.render(unit, frames: 512)
        for var message in sysEx { #expect(MusicDeviceSysEx(unit, &message, UInt32(message.count)) == noErr) }
        #expect(MusicDeviceMIDIEvent(unit, 0x90, 60, 100, 0) == noErr)
        return SequenceRenderTests.render(unit, from: 512, frames: 16_384)
    }

    @Test func masterVolumeScalesTheLevel() throws {
        let full = try Self.play()
        let half = try Self.play(sysEx: [Self.masterVolume(8_192)])   // 8192 / 16383 = 0.50003
        let ratio = Self.rms(half[...]) / Self.rms(full[...])
        #expect(Self.rms(full[...]) > 0.01, "the note sounds")
        #expect(abs(ratio - 0.5) < 0.005, "master volume 8192 of 16383: level ratio \(ratio), expected 0.5 ± 0.005")
        let back = try Self.play(sysEx: [Self.masterVolume(8_192), Self.masterVolume(16_383)])
        #expect(abs(Self.rms(back[...]) / Self.rms(full[...]) - 1) < 0.005, "full master volume again")
    }

    /// A program change to the violin (40) then a reset: the note is the GM piano's, sample
    /// for sample as a fresh sampler plays it; without the reset it is not.
    @Test func gmSystemOnAndGSResetBringProgramsAndControllersBack() throws {
        let piano = try Self.play()
        let violin = try Self.play(after: [(0xC0, 40, 0)])
        #expect(Self.rms(zip(piano, violin).map { $0 - $1 }[...]) > 0.01, "the violin is not the piano")
        for reset in [Self.gmSystemOn, Self.gsReset] {
            let afterReset = try Self.play(sysEx: [reset], after: [(0xC0, 40, 0), (0xB0, 7, 20), (0xB0, 10, 0)])   // program, volume, pan
            let difference = zip(piano, afterReset).map { abs($0 - $1) }.max() ?? 1
            #expect(difference < 1e-6, "after \(reset.map { String($0, radix: 16) }): the piano at its default volume and pan (largest difference \(difference))")
        }
        // The reset also brings the master volume back.
        let afterVolumeAndReset = try Self.play(sysEx: [Self.masterVolume(1_000), Self.gmSystemOn])
        #expect(abs(Self.rms(afterVolumeAndReset[...]) / Self.rms(piano[...]) - 1) < 0.005)
    }

    @Test func wrongMessagesAndUnitsAreRefused() throws {
        let unit = try MusicDeviceFunctionTests.synth()
        defer { AudioComponentInstanceDispose(unit) }
        var unframed: [UInt8] = [0x7E, 0x7F, 0x09, 0x01]
        #expect(MusicDeviceSysEx(unit, &unframed, 4) == kAudio_ParamError)
        var tooLong = [UInt8](repeating: 0, count: 65)
        tooLong[0] = 0xF0
        tooLong[64] = 0xF7
        #expect(MusicDeviceSysEx(unit, &tooLong, 65) == kAudio_ParamError)
        #expect(MusicDeviceSysEx(unit, nil, 6) == kAudio_ParamError)
        #expect(MusicDeviceSysEx(nil, nil, 0) == kAudio_ParamError)
        // The queue holds 64 messages until a render takes them.
        var volume = Self.masterVolume(16_383)
        for _ in 0..<64 { #expect(MusicDeviceSysEx(unit, &volume, UInt32(volume.count)) == noErr) }
        #expect(MusicDeviceSysEx(unit, &volume, UInt32(volume.count)) == kAudioUnitErr_CannotDoInCurrentContext)
        _ = SequenceRenderTests.render(unit, frames: 512)
        #expect(MusicDeviceSysEx(unit, &volume, UInt32(volume.count)) == noErr, "taken by the render")

        var mixerDescription = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var mixer: AudioUnit?
        #expect(AudioComponentInstanceNew(AudioComponentFindNext(nil, &mixerDescription), &mixer) == noErr)
        defer { AudioComponentInstanceDispose(mixer!) }
        #expect(MusicDeviceSysEx(mixer, &volume, UInt32(volume.count)) == badComponentSelector, "a unit that takes no SysEx")
    }

    /// A raw-data event at beat 2 (master volume to half) on a track playing into the sampler
    /// → GenericOutput graph: before beat 2's frame every sample is as without it; from it
    /// (FluidSynth computes 64 frames at a time, so within 64 frames) the level is half.
    @Test func aRawDataEventOnATrackReachesTheSamplerOnItsBeat() throws {
        func render(withEvent: Bool) throws -> (samples: [Float], sampleRate: Double) {
            let (graph, _, output) = try #require(SequenceRenderTests.samplerGraph())
            defer { DisposeAUGraph(graph) }
            var sequence: MusicSequence?, track: MusicTrack?
            #expect(NewMusicSequence(&sequence) == noErr)
            defer { DisposeMusicSequence(sequence!) }
            #expect(MusicSequenceNewTrack(sequence, &track) == noErr)
            var note = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 4)
            #expect(MusicTrackNewMIDINoteEvent(track, 0, &note) == noErr)
            if withEvent {
                let message = Self.masterVolume(8_192)
                let raw = UnsafeMutableRawPointer.allocate(byteCount: 4 + message.count, alignment: 4)
                defer { raw.deallocate() }
                raw.storeBytes(of: UInt32(message.count), as: UInt32.self)
                for (index, byte) in message.enumerated() { raw.storeBytes(of: byte, toByteOffset: 4 + index, as: UInt8.self) }
                #expect(MusicTrackNewMIDIRawDataEvent(track, 2, raw.assumingMemoryBound(to: MIDIRawData.self)) == noErr)
            }
            #expect(MusicSequenceSetAUGraph(sequence, graph) == noErr)
            return MusicTrackUnitEventTests.playAndRender(sequence, output: output, seconds: 3)
        }
        let (plain, sampleRate) = try render(withEvent: false)
        let (halved, _) = try render(withEvent: true)
        let step = Int(sampleRate)   // beat 2 at 120 BPM
        try #require(sampleRate > 0 && plain.count >= 3 * step && halved.count == plain.count)
        let firstChange = plain.indices.first { plain[$0] != halved[$0] }
        #expect(firstChange.map { (step...step + 64).contains($0) } == true, "the level changes at frame \(firstChange ?? -1); beat 2 is frame \(step)")
        let ratio = Self.rms(halved[(step + 64)..<(step + 16_384)]) / Self.rms(plain[(step + 64)..<(step + 16_384)])
        #expect(abs(ratio - 0.5) < 0.005, "level after beat 2: \(ratio) of the plain render's, expected 0.5 ± 0.005")
    }
}
