import Foundation
internal import AUCore
internal import AUMIDI

// Standard MIDI Files into and out of a MusicSequence: MusicSequenceFileLoad(Data),
// MusicSequenceFileCreate(Data) and the older LoadSMFDataWithFlags / SaveSMFData.

/// Replaces the sequence's tracks with those of the Standard MIDI File `bytes` (`path`
/// names it in the error line): kAudioFileInvalidFileError ('dta?') for a malformed file.
/// With kMusicSequenceLoadSMF_ChannelsToTracks, one track per MIDI channel used (in
/// channel order) and a last one for the meta and system-exclusive events.
func load(_ bytes: [UInt8], path: String, into sequence: SequenceHandle, flags: UInt32, typeHint: UInt32) throws -> OSStatus {
    guard flags & ~kMusicSequenceLoadSMF_ChannelsToTracks == 0 else { return kAudio_ParamError }
    switch typeHint {
    case kMusicSequenceFile_AnyType, kMusicSequenceFile_MIDIType: break
    case kMusicSequenceFile_iMelodyType: return kAudio_UnimplementedError
    default: return kAudio_ParamError
    }
    var model: SequenceModel
    do {
        model = try SequenceModel.load(bytes: bytes, path: path)
    } catch {
        FileHandle.standardError.write(Data("AudioToolbox: \(error)\n".utf8))
        return kAudioFileInvalidFileError
    }
    if flags & kMusicSequenceLoadSMF_ChannelsToTracks != 0 { model.tracks = channelsToTracks(model.tracks) }
    sequence.replaceModel(model)
    try sequence.edited()
    return noErr
}

/// The events of `tracks` split by MIDI channel, then one track of everything else.
func channelsToTracks(_ tracks: [TrackModel]) -> [TrackModel] {
    var byChannel = [TrackModel?](repeating: nil, count: 16)
    var other = TrackModel()
    for track in tracks {
        for event in track.events {
            let channel: UInt8? = switch event.event {
            case .note(let note): note.channel & 0x0F
            case .channel(let message): message.channel
            default: nil
            }
            if let channel {
                if byChannel[Int(channel)] == nil { byChannel[Int(channel)] = TrackModel() }
                byChannel[Int(channel)]!.add(event.event, at: event.timeStamp)
            } else {
                other.add(event.event, at: event.timeStamp)
            }
        }
    }
    return byChannel.compactMap { $0 } + [other]
}

/// `MusicSequenceFileLoad`: a Standard MIDI File at a file URL replaces the sequence's
/// tracks; a missing file is kAudio_FileNotFoundError.
/// - Thread: [control]
@_cdecl("MusicSequenceFileLoad")
public func _MusicSequenceFileLoad(_ inSequence: OpaquePointer?, _ inFileRef: OpaquePointer?, _ inTypeHint: UInt32, _ inFlags: UInt32) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let path = filePath(of: inFileRef) else { return kAudio_ParamError }
        let bytes: [UInt8]
        do {
            bytes = try SequenceModel.fileBytes(atPath: path)
        } catch {
            FileHandle.standardError.write(Data("AudioToolbox: \(error)\n".utf8))
            return AtomicFile.NodeKind(path: path) == .missing ? kAudio_FileNotFoundError : kAudioFileInvalidFileError
        }
        return try load(bytes, path: path, into: sequence, flags: inFlags, typeHint: inTypeHint)
    }
}

/// `MusicSequenceFileLoadData`: the same from a CFData.
/// - Thread: [control]
@_cdecl("MusicSequenceFileLoadData")
public func _MusicSequenceFileLoadData(_ inSequence: OpaquePointer?, _ inData: OpaquePointer?, _ inTypeHint: UInt32, _ inFlags: UInt32) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let data = bytes(of: inData) else { return kAudio_ParamError }
        return try load(data, path: "<CFData>", into: sequence, flags: inFlags, typeHint: inTypeHint)
    }
}

/// `MusicSequenceLoadSMFDataWithFlags`: the older name of MusicSequenceFileLoadData.
/// - Thread: [control]
@_cdecl("MusicSequenceLoadSMFDataWithFlags")
public func _MusicSequenceLoadSMFDataWithFlags(_ inSequence: OpaquePointer?, _ inData: OpaquePointer?, _ inFlags: UInt32) -> OSStatus {
    _MusicSequenceFileLoadData(inSequence, inData, kMusicSequenceFile_MIDIType, inFlags)
}

/// The sequence as format-1 SMF bytes at `resolution` ticks a beat (0: 480).
func smfBytes(_ sequence: SequenceHandle, resolution: Int) throws(StatusError) -> [UInt8] {
    guard (0...0x7FFF).contains(resolution) else { throw StatusError(kAudio_ParamError) }
    var model = sequence.model
    model.division = .ticksPerQuarterNote(UInt16(resolution == 0 ? 480 : resolution))
    do {
        return try model.fileBytes(format: .multipleTracks)
    } catch {
        FileHandle.standardError.write(Data("AudioToolbox: \(error)\n".utf8))
        throw StatusError(kAudio_ParamError)
    }
}

/// `MusicSequenceFileCreate`: writes a Standard MIDI File (format 1) at the URL, atomically;
/// an existing file is kept (kAudio_FilePermissionError) unless kMusicSequenceFileFlags_EraseFile.
/// - Thread: [control]
@_cdecl("MusicSequenceFileCreate")
public func _MusicSequenceFileCreate(
    _ inSequence: OpaquePointer?, _ inFileRef: OpaquePointer?, _ inFileType: UInt32, _ inFlags: UInt32, _ inResolution: Int16
) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let path = filePath(of: inFileRef), inFileType == kMusicSequenceFile_MIDIType, inFlags & ~kMusicSequenceFileFlags_EraseFile == 0
        else { return kAudio_ParamError }
        let bytes = try smfBytes(sequence, resolution: Int(inResolution))
        do throws(AtomicFileFailure) {
            let file = try AtomicFile(destination: path, overwrite: inFlags & kMusicSequenceFileFlags_EraseFile != 0)
            try file.write(Data(bytes))
            try file.commit()
        } catch {
            FileHandle.standardError.write(Data("AudioToolbox: \(path): \(error.explanation)\n".utf8))
            return kAudio_FilePermissionError
        }
        return noErr
    }
}

/// `MusicSequenceFileCreateData`: the file's bytes as a new CFData (the caller releases it).
/// - Thread: [control]
@_cdecl("MusicSequenceFileCreateData")
public func _MusicSequenceFileCreateData(
    _ inSequence: OpaquePointer?, _ inFileType: UInt32, _ inFlags: UInt32, _ inResolution: Int16, _ outData: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outData, inFileType == kMusicSequenceFile_MIDIType else { return kAudio_ParamError }
        outData.pointee = retainedData(try smfBytes(sequence, resolution: Int(inResolution)))
        return noErr
    }
}

/// `MusicSequenceSaveSMFData`: the older name of MusicSequenceFileCreateData.
/// - Thread: [control]
@_cdecl("MusicSequenceSaveSMFData")
public func _MusicSequenceSaveSMFData(_ inSequence: OpaquePointer?, _ outData: UnsafeMutablePointer<OpaquePointer?>?, _ inResolution: UInt16) -> OSStatus {
    guard inResolution <= 0x7FFF else { return kAudio_ParamError }
    return _MusicSequenceFileCreateData(inSequence, kMusicSequenceFile_MIDIType, 0, Int16(inResolution), outData)
}
