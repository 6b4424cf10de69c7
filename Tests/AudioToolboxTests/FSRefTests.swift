import AudioToolbox
import Foundation
import Testing

/// CoreServices' FSRef as Core Audio sample code uses it: FSPathMakeRef, FSRefMakePath, the
/// sampler's kMusicDeviceProperty_SoundBankFSRef and MusicSequenceLoadSMFWithFlags.
@Suite struct FSRefTests {
    @Test func pathsBecomeReferencesAndBack() throws {
        var ref = FSRef()
        var isDirectory: DarwinBoolean = true
        #expect(FSPathMakeRef(MusicDeviceFunctionTests.bank, &ref, &isDirectory) == noErr && !isDirectory.boolValue)
        var path = [UInt8](repeating: 0, count: 256)
        #expect(FSRefMakePath(&ref, &path, 256) == noErr)
        #expect(String(decoding: path.prefix { $0 != 0 }, as: UTF8.self) == MusicDeviceFunctionTests.bank)
        #expect(FSRefMakePath(&ref, &path, 4) == kAudio_ParamError, "no room")
        #expect(FSPathMakeRef("/tmp", &ref, &isDirectory) == noErr && isDirectory.boolValue)
        #expect(FSPathMakeRef("/nonexistent/bank.sf2", &ref, nil) == fnfErr)
        #expect(FSPathMakeRef(nil, &ref, nil) == kAudio_ParamError)
        var garbage = FSRef()
        #expect(FSRefMakePath(&garbage, &path, 256) == bdNamErr)
    }

    @Test func theSamplerLoadsABankByFSRef() throws {
        let unit = try MusicDeviceFunctionTests.synth()
        defer { AudioComponentInstanceDispose(unit) }
        var ref = FSRef()
        #expect(FSPathMakeRef(MusicDeviceFunctionTests.bank, &ref, nil) == noErr)
        #expect(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankFSRef, kAudioUnitScope_Global, 0, &ref, UInt32(MemoryLayout<FSRef>.size)) == noErr)
        var read: OpaquePointer?
        var size: UInt32 = 8
        #expect(AudioUnitGetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &read, &size) == noErr)
        let url = Unmanaged<NSURL>.fromOpaque(UnsafeRawPointer(try #require(read))).takeRetainedValue()
        #expect(url.path == MusicDeviceFunctionTests.bank)
        var garbage = FSRef()
        #expect(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankFSRef, kAudioUnitScope_Global, 0, &garbage, UInt32(MemoryLayout<FSRef>.size)) == kAudio_ParamError)
    }

    @Test func aSequenceLoadsAFileByFSRef() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = folder.appendingPathComponent("song.mid")
        try Data(SequenceRenderTests.file).write(to: song)
        var ref = FSRef()
        #expect(FSPathMakeRef(song.path, &ref, nil) == noErr)
        var sequence: MusicSequence?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        #expect(MusicSequenceLoadSMFWithFlags(sequence, &ref, kMusicSequenceLoadSMF_ChannelsToTracks) == noErr)
        var count: UInt32 = 0
        #expect(MusicSequenceGetTrackCount(sequence, &count) == noErr && count == 2, "channel 0, then the meta events")
        #expect(MusicSequenceLoadSMFWithFlags(sequence, nil, 0) == kAudio_ParamError)
    }
}
