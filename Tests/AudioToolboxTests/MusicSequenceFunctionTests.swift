import AUTestSupport
import AudioToolbox
import Foundation
import Testing

/// The MusicSequence, MusicTrack and MusicEventIterator functions through the C API: each
/// one's effect, read back through another, and the OSStatus of each wrong argument.
@Suite struct MusicSequenceFunctionTests {
    static func newSequence() throws -> MusicSequence {
        var sequence: MusicSequence?
        #expect(NewMusicSequence(&sequence) == noErr)
        return try #require(sequence)
    }

    @Test func tracksAreMadeCountedFoundAndDisposed() throws {
        #expect(NewMusicSequence(nil) == kAudio_ParamError)
        let sequence = try Self.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var first: MusicTrack?, second: MusicTrack?
        #expect(MusicSequenceNewTrack(sequence, &first) == noErr)
        #expect(MusicSequenceNewTrack(sequence, &second) == noErr)
        #expect(MusicSequenceNewTrack(sequence, nil) == kAudio_ParamError)
        var count: UInt32 = 0
        #expect(MusicSequenceGetTrackCount(sequence, &count) == noErr && count == 2)
        #expect(MusicSequenceGetTrackCount(sequence, nil) == kAudio_ParamError)
        var found: MusicTrack?
        #expect(MusicSequenceGetIndTrack(sequence, 1, &found) == noErr && found == second)
        #expect(MusicSequenceGetIndTrack(sequence, 2, &found) == kAudioToolboxErr_TrackIndexError)
        var index: UInt32 = 9
        #expect(MusicSequenceGetTrackIndex(sequence, second, &index) == noErr && index == 1)
        var tempo: MusicTrack?
        #expect(MusicSequenceGetTempoTrack(sequence, &tempo) == noErr && tempo != nil)
        #expect(MusicSequenceGetTrackIndex(sequence, tempo, &index) == kAudioToolboxErr_TrackNotFound)
        var owner: MusicSequence?
        #expect(MusicTrackGetSequence(second, &owner) == noErr && owner == sequence)
        #expect(MusicTrackGetSequence(second, nil) == kAudio_ParamError)

        let other = try Self.newSequence()
        var foreign: MusicTrack?
        #expect(MusicSequenceNewTrack(other, &foreign) == noErr)
        #expect(MusicSequenceDisposeTrack(sequence, foreign) == kAudioToolboxErr_TrackNotFound)
        #expect(DisposeMusicSequence(other) == noErr)
        #expect(MusicTrackGetSequence(foreign, &owner) == kAudio_ParamError, "a disposed sequence's track is no live track")
        #expect(DisposeMusicSequence(other) == kAudio_ParamError)

        #expect(MusicSequenceDisposeTrack(sequence, first) == noErr)
        #expect(MusicSequenceGetTrackCount(sequence, &count) == noErr && count == 1)
        #expect(MusicSequenceGetTrackIndex(sequence, second, &index) == noErr && index == 0)
        #expect(MusicSequenceDisposeTrack(sequence, tempo) == kAudioToolboxErr_TrackNotFound)
    }

    @Test func typeTimeAndBarBeatConversions() throws {
        let sequence = try Self.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var type: MusicSequenceType = 0
        #expect(MusicSequenceGetSequenceType(sequence, &type) == noErr && type == kMusicSequenceType_Beats)
        #expect(MusicSequenceSetSequenceType(sequence, kMusicSequenceType_Beats) == noErr)
        #expect(MusicSequenceSetSequenceType(sequence, kMusicSequenceType_Seconds) == kAudioToolboxErr_InvalidSequenceType)
        #expect(MusicSequenceSetSequenceType(sequence, 0x1234) == kAudio_ParamError)
        #expect(MusicSequenceGetSequenceType(sequence, nil) == kAudio_ParamError)

        var tempo: MusicTrack?
        #expect(MusicSequenceGetTempoTrack(sequence, &tempo) == noErr)
        #expect(MusicTrackNewExtendedTempoEvent(tempo, 0, 60) == noErr)
        #expect(MusicTrackNewExtendedTempoEvent(tempo, 4, 120) == noErr)
        #expect(MusicTrackNewExtendedTempoEvent(tempo, 4, 0) == kAudio_ParamError)
        var seconds = 0.0, beats = 0.0
        #expect(MusicSequenceGetSecondsForBeats(sequence, 6, &seconds) == noErr && abs(seconds - 5) < 1e-9)
        #expect(MusicSequenceGetBeatsForSeconds(sequence, 5, &beats) == noErr && abs(beats - 6) < 1e-9)
        #expect(MusicSequenceGetSecondsForBeats(sequence, .nan, &seconds) == kAudio_ParamError)
        #expect(MusicSequenceGetBeatsForSeconds(sequence, 1, nil) == kAudio_ParamError)

        var time = CABarBeatTime()
        #expect(MusicSequenceBeatsToBarBeatTime(sequence, 5.5, 480, &time) == noErr)
        #expect(time.bar == 2 && time.beat == 2 && time.subbeat == 240 && time.subbeatDivisor == 480)
        #expect(MusicSequenceBeatsToBarBeatTime(sequence, 1, 0, &time) == kAudio_ParamError)
        #expect(MusicSequenceBarBeatTimeToBeats(sequence, &time, &beats) == noErr && abs(beats - 5.5) < 1e-9)
        #expect(MusicSequenceBarBeatTimeToBeats(sequence, nil, &beats) == kAudio_ParamError)
        #expect(MusicSequenceSetMIDIEndpoint(sequence, 1) == kAudio_UnimplementedError)
        #expect(MusicSequenceSetUserCallback(sequence, nil, nil) == noErr, "no callback: the calls stop")
        #expect(MusicSequenceSetUserCallback(nil, nil, nil) == kAudio_ParamError)
    }

    @Test func everyEventKindIsAddedAndReadBackByAnIterator() throws {
        let sequence = try Self.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        #expect(MusicSequenceNewTrack(sequence, &track) == noErr)
        var note = MIDINoteMessage(channel: 1, note: 60, velocity: 90, releaseVelocity: 0, duration: 0.5)
        #expect(MusicTrackNewMIDINoteEvent(track, 1, &note) == noErr)
        var control = MIDIChannelMessage(status: 0xB1, data1: 7, data2: 100, reserved: 0)
        #expect(MusicTrackNewMIDIChannelEvent(track, 0, &control) == noErr)
        var bad = MIDIChannelMessage(status: 0x12, data1: 0, data2: 0, reserved: 0)
        #expect(MusicTrackNewMIDIChannelEvent(track, 0, &bad) == kAudio_ParamError)
        var raw = MIDIRawData(length: 1, data: 0xF0)
        #expect(MusicTrackNewMIDIRawDataEvent(track, 2, &raw) == noErr)
        var meta = MIDIMetaEvent(metaEventType: 0x01, unused1: 0, unused2: 0, unused3: 0, dataLength: 1, data: 0x41)
        #expect(MusicTrackNewMetaEvent(track, 3, &meta) == noErr)
        var user = MusicEventUserData(length: 1, data: 7)
        #expect(MusicTrackNewUserEvent(track, 4, &user) == noErr)
        var extended = ExtendedNoteOnEvent()
        extended.groupID = 2
        extended.duration = 1
        extended.extendedParams = MusicDeviceNoteParams(argCount: 2, mPitch: 64, mVelocity: 80, mControls: NoteParamsControlValue())
        #expect(MusicTrackNewExtendedNoteEvent(track, 5, &extended) == noErr)
        #expect(MusicTrackNewExtendedTempoEvent(track, 0, 100) == kAudioToolboxErr_InvalidEventType, "tempo belongs on the tempo track")
        #expect(MusicTrackNewMIDINoteEvent(track, -1, &note) == kAudio_ParamError)
        #expect(MusicTrackNewMIDINoteEvent(track, 1, nil) == kAudio_ParamError)
        #expect(MusicTrackNewMIDINoteEvent(nil, 1, &note) == kAudio_ParamError)

        var iterator: MusicEventIterator?
        #expect(NewMusicEventIterator(track, &iterator) == noErr)
        #expect(NewMusicEventIterator(track, nil) == kAudio_ParamError)
        defer { DisposeMusicEventIterator(iterator) }
        var kinds: [(Double, MusicEventType)] = []
        var has: DarwinBoolean = false
        while MusicEventIteratorHasCurrentEvent(iterator, &has) == noErr && has.boolValue {
            var time = 0.0, type: MusicEventType = 0
            var data: UnsafeRawPointer?
            var size: UInt32 = 0
            #expect(MusicEventIteratorGetEventInfo(iterator, &time, &type, &data, &size) == noErr)
            kinds.append((time, type))
            if type == kMusicEventType_MIDINoteMessage && time == 1 {
                let read = data!.loadUnaligned(as: MIDINoteMessage.self)
                #expect(read.channel == 1 && read.note == 60 && read.velocity == 90 && read.duration == 0.5)
            }
            if type == kMusicEventType_Meta {
                let read = data!.loadUnaligned(as: MIDIMetaEvent.self)
                #expect(read.metaEventType == 1 && read.dataLength == 1 && read.data == 0x41)
            }
            if type == kMusicEventType_MIDIRawData {
                #expect(data!.loadUnaligned(as: UInt32.self) == 1 && data!.load(fromByteOffset: 4, as: UInt8.self) == 0xF0)
            }
            #expect(MusicEventIteratorNextEvent(iterator) == noErr)
        }
        #expect(kinds.map(\.0) == [0, 1, 2, 3, 4, 5])
        #expect(kinds.map(\.1) == [kMusicEventType_MIDIChannelMessage, kMusicEventType_MIDINoteMessage, kMusicEventType_MIDIRawData,
                                   kMusicEventType_Meta, kMusicEventType_User, kMusicEventType_MIDINoteMessage])
        #expect(MusicEventIteratorNextEvent(iterator) == kAudioToolboxErr_EndOfTrack)
        #expect(MusicEventIteratorGetEventInfo(iterator, nil, nil, nil, nil) == kAudioToolboxErr_EndOfTrack)
        #expect(MusicEventIteratorHasNextEvent(iterator, &has) == noErr && !has.boolValue)
        #expect(MusicEventIteratorHasPreviousEvent(iterator, &has) == noErr && has.boolValue)
        #expect(MusicEventIteratorHasCurrentEvent(iterator, nil) == kAudio_ParamError)
    }

    @Test func anIteratorSeeksMovesChangesAndDeletes() throws {
        let sequence = try Self.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        #expect(MusicSequenceNewTrack(sequence, &track) == noErr)
        for (time, key) in [(0.0, UInt8(60)), (1, 62), (2, 64)] {
            var note = MIDINoteMessage(channel: 0, note: key, velocity: 100, releaseVelocity: 0, duration: 0.5)
            #expect(MusicTrackNewMIDINoteEvent(track, time, &note) == noErr)
        }
        var iterator: MusicEventIterator?
        #expect(NewMusicEventIterator(track, &iterator) == noErr)
        defer { DisposeMusicEventIterator(iterator) }
        func current() -> (Double, UInt8)? {
            var time = 0.0
            var data: UnsafeRawPointer?
            guard MusicEventIteratorGetEventInfo(iterator, &time, nil, &data, nil) == noErr else { return nil }
            return (time, data!.loadUnaligned(as: MIDINoteMessage.self).note)
        }
        #expect(MusicEventIteratorPreviousEvent(iterator) == kAudioToolboxErr_StartOfTrack)
        #expect(MusicEventIteratorSeek(iterator, 0.5) == noErr)
        #expect(current()?.1 == 62)
        #expect(MusicEventIteratorSeek(iterator, .nan) == kAudio_ParamError)
        #expect(MusicEventIteratorSetEventTime(iterator, 3) == noErr)
        #expect(current()?.0 == 3 && current()?.1 == 62, "the iterator stays on the moved event")
        #expect(MusicEventIteratorSetEventTime(iterator, -1) == kAudio_ParamError)
        var replacement = MIDINoteMessage(channel: 0, note: 70, velocity: 100, releaseVelocity: 0, duration: 1)
        #expect(MusicEventIteratorSetEventInfo(iterator, kMusicEventType_MIDINoteMessage, &replacement) == noErr)
        #expect(current()?.0 == 3 && current()?.1 == 70)
        #expect(MusicEventIteratorSetEventInfo(iterator, 99, &replacement) == kAudioToolboxErr_InvalidEventType)
        #expect(MusicEventIteratorPreviousEvent(iterator) == noErr)
        #expect(current()?.1 == 64)
        #expect(MusicEventIteratorDeleteEvent(iterator) == noErr)
        #expect(current()?.1 == 70, "after a delete the iterator is on the event that followed")
        #expect(MusicEventIteratorSeek(iterator, 0) == noErr)
        var times: [Double] = []
        var has: DarwinBoolean = false
        while MusicEventIteratorHasCurrentEvent(iterator, &has) == noErr && has.boolValue {
            times.append(current()!.0)
            _ = MusicEventIteratorNextEvent(iterator)
        }
        #expect(times == [0, 3])
        #expect(DisposeMusicEventIterator(iterator) == noErr)
        #expect(MusicEventIteratorSeek(iterator, 0) == kAudio_ParamError, "a disposed iterator")
        iterator = nil
    }

    @Test func trackPropertiesAndEditing() throws {
        let sequence = try Self.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var source: MusicTrack?, destination: MusicTrack?
        #expect(MusicSequenceNewTrack(sequence, &source) == noErr)
        #expect(MusicSequenceNewTrack(sequence, &destination) == noErr)
        for time in [0.0, 1, 2, 3] {
            var note = MIDINoteMessage(channel: 0, note: UInt8(60 + time), velocity: 100, releaseVelocity: 0, duration: 0.5)
            #expect(MusicTrackNewMIDINoteEvent(source, time, &note) == noErr)
        }
        func times(_ track: MusicTrack?) -> [Double] {
            var iterator: MusicEventIterator?
            _ = NewMusicEventIterator(track, &iterator)
            defer { DisposeMusicEventIterator(iterator) }
            var result: [Double] = []
            var time = 0.0
            while MusicEventIteratorGetEventInfo(iterator, &time, nil, nil, nil) == noErr {
                result.append(time)
                _ = MusicEventIteratorNextEvent(iterator)
            }
            return result
        }
        var loop = MusicTrackLoopInfo(loopDuration: 4, numberOfLoops: 2)
        #expect(MusicTrackSetProperty(source, kSequenceTrackProperty_LoopInfo, &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size)) == noErr)
        var readLoop = MusicTrackLoopInfo()
        var size = UInt32(MemoryLayout<MusicTrackLoopInfo>.size)
        #expect(MusicTrackGetProperty(source, kSequenceTrackProperty_LoopInfo, &readLoop, &size) == noErr && readLoop.loopDuration == 4 && readLoop.numberOfLoops == 2)
        var muted: UInt8 = 1
        #expect(MusicTrackSetProperty(source, kSequenceTrackProperty_MuteStatus, &muted, 1) == noErr)
        muted = 0
        size = 1
        #expect(MusicTrackGetProperty(source, kSequenceTrackProperty_MuteStatus, &muted, &size) == noErr && muted == 1)
        var solo: UInt8 = 1
        #expect(MusicTrackSetProperty(source, kSequenceTrackProperty_SoloStatus, &solo, 1) == noErr)
        var offset = 0.5
        #expect(MusicTrackSetProperty(source, kSequenceTrackProperty_OffsetTime, &offset, 8) == noErr)
        var length = 10.0
        #expect(MusicTrackSetProperty(source, kSequenceTrackProperty_TrackLength, &length, 8) == noErr)
        length = 0
        size = 8
        #expect(MusicTrackGetProperty(source, kSequenceTrackProperty_TrackLength, &length, &size) == noErr && length == 10)
        size = 0
        #expect(MusicTrackGetProperty(source, kSequenceTrackProperty_TimeResolution, nil, &size) == noErr && size == 2)
        var resolution: Int16 = 0
        #expect(MusicTrackGetProperty(source, kSequenceTrackProperty_TimeResolution, &resolution, &size) == noErr && resolution == 480)
        #expect(MusicTrackSetProperty(source, kSequenceTrackProperty_TimeResolution, &resolution, 2) == kAudioUnitErr_PropertyNotWritable)
        #expect(MusicTrackSetProperty(source, kSequenceTrackProperty_TrackLength, &length, 4) == kAudio_ParamError)
        #expect(MusicTrackSetProperty(source, 77, &length, 8) == kAudio_ParamError)
        #expect(MusicTrackSetProperty(source, kSequenceTrackProperty_AutomatedParameters, &muted, 1) == kAudio_UnimplementedError)

        #expect(MusicTrackMerge(source, 0, 2, destination, 10) == noErr)
        #expect(times(destination) == [10, 11])
        #expect(MusicTrackCopyInsert(source, 2, 4, destination, 10) == noErr)
        #expect(times(destination) == [10, 11, 12, 13], "the inserted range moves the later events on by its length")
        #expect(MusicTrackMoveEvents(destination, 12, 14, -2) == noErr)
        #expect(times(destination) == [10, 10, 11, 11])
        #expect(MusicTrackClear(source, 1, 2) == noErr)
        #expect(times(source) == [0, 2, 3])
        #expect(MusicTrackCut(source, 0, 1) == noErr)
        #expect(times(source) == [1, 2], "a cut closes the gap")
        #expect(MusicTrackClear(source, 2, 1) == kAudio_ParamError)
        #expect(MusicTrackCut(source, -1, 1) == kAudio_ParamError)
        #expect(MusicTrackMoveEvents(source, 0, 1, .infinity) == kAudio_ParamError)
        #expect(MusicTrackMerge(source, 0, 1, nil, 0) == kAudio_ParamError)
        #expect(MusicTrackCopyInsert(source, 0, 1, destination, -1) == kAudio_ParamError)
    }

    @Test func filesAreWrittenAndReadBack() throws {
        let folder = try TemporaryFolder(prefix: "sequence-files")
        defer { folder.remove() }
        let sequence = try Self.newSequence()
        defer { DisposeMusicSequence(sequence) }
        var track: MusicTrack?
        #expect(MusicSequenceNewTrack(sequence, &track) == noErr)
        for (channel, time) in [(UInt8(0), 0.0), (3, 1), (0, 2)] {
            var note = MIDINoteMessage(channel: channel, note: 60, velocity: 100, releaseVelocity: 0, duration: 0.5)
            #expect(MusicTrackNewMIDINoteEvent(track, time, &note) == noErr)
        }
        var meta = MIDIMetaEvent(metaEventType: 0x03, unused1: 0, unused2: 0, unused3: 0, dataLength: 1, data: 0x54)
        #expect(MusicTrackNewMetaEvent(track, 0, &meta) == noErr)
        let url = folder.url.appendingPathComponent("song.mid")
        #expect(MusicSequenceFileCreate(sequence, url as NSURL as CFURL, kMusicSequenceFile_MIDIType, kMusicSequenceFileFlags_Default, 960) == noErr)
        #expect(MusicSequenceFileCreate(sequence, url as NSURL as CFURL, kMusicSequenceFile_MIDIType, kMusicSequenceFileFlags_Default, 960) == kAudio_FilePermissionError,
                "an existing file is kept without EraseFile")
        #expect(MusicSequenceFileCreate(sequence, url as NSURL as CFURL, kMusicSequenceFile_MIDIType, kMusicSequenceFileFlags_EraseFile, 960) == noErr)
        #expect(MusicSequenceFileCreate(sequence, url as NSURL as CFURL, kMusicSequenceFile_iMelodyType, 0, 960) == kAudio_ParamError)

        let loaded = try Self.newSequence()
        defer { DisposeMusicSequence(loaded) }
        #expect(MusicSequenceFileLoad(loaded, url as NSURL as CFURL, kMusicSequenceFile_AnyType, kMusicSequenceLoadSMF_ChannelsToTracks) == noErr)
        var count: UInt32 = 0
        #expect(MusicSequenceGetTrackCount(loaded, &count) == noErr && count == 3, "channels 0 and 3, then the meta events")
        #expect(MusicSequenceFileLoad(loaded, url as NSURL as CFURL, kMusicSequenceFile_MIDIType, 0) == noErr)
        #expect(MusicSequenceGetTrackCount(loaded, &count) == noErr && count == 1)
        let missing = folder.url.appendingPathComponent("none.mid")
        #expect(MusicSequenceFileLoad(loaded, missing as NSURL as CFURL, 0, 0) == kAudio_FileNotFoundError)
        let garbage = folder.url.appendingPathComponent("garbage.mid")
        try Data("MThd garbage".utf8).write(to: garbage)
        #expect(MusicSequenceFileLoad(loaded, garbage as NSURL as CFURL, 0, 0) == OSStatus(bitPattern: 0x6474_613F), "kAudioFileInvalidFileError")
        #expect(MusicSequenceFileLoad(loaded, url as NSURL as CFURL, 0, 0x80) == kAudio_ParamError, "an unknown flag")
        #expect(_MusicSequenceFileLoad(loaded, nil, 0, 0) == kAudio_ParamError)

        // CFData out-pointers through the C symbols (a CFDataRef is an NSData here).
        var data: OpaquePointer?
        #expect(_MusicSequenceFileCreateData(sequence, kMusicSequenceFile_MIDIType, 0, 480, &data) == noErr)
        let bytes = Unmanaged<NSData>.fromOpaque(UnsafeRawPointer(try #require(data))).takeRetainedValue()
        #expect(bytes.length > 14 && (bytes as Data).prefix(4) == Data("MThd".utf8))
        #expect(_MusicSequenceFileCreateData(sequence, kMusicSequenceFile_MIDIType, 0, 480, nil) == kAudio_ParamError)
        var saved: OpaquePointer?
        #expect(_MusicSequenceSaveSMFData(sequence, &saved, 240) == noErr)
        let savedBytes = Unmanaged<NSData>.fromOpaque(UnsafeRawPointer(try #require(saved))).takeRetainedValue()
        #expect(_MusicSequenceLoadSMFDataWithFlags(loaded, OpaquePointer(Unmanaged.passUnretained(savedBytes).toOpaque()), 0) == noErr)
        #expect(MusicSequenceGetTrackCount(loaded, &count) == noErr && count == 1)
        #expect(_MusicSequenceFileLoadData(loaded, OpaquePointer(Unmanaged.passUnretained(savedBytes).toOpaque()), 0, kMusicSequenceLoadSMF_ChannelsToTracks) == noErr)
        #expect(MusicSequenceGetTrackCount(loaded, &count) == noErr && count == 3)
        #expect(_MusicSequenceFileLoadData(loaded, nil, 0, 0) == kAudio_ParamError)
        #expect(_MusicSequenceSaveSMFData(sequence, &saved, 0x8000) == kAudio_ParamError)
    }
}
