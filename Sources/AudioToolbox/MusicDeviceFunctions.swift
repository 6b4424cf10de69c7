import Foundation
internal import AUCore
internal import AUFiles
internal import AUSampler

// MusicDevice.h's functions (MIDI into a music device from the control side, for its next
// render cycle; Apple's synths are AUAppleUnits'), and the sampler's properties as Apple
// defines them (kAUSamplerProperty_LoadInstrument, kMusicDeviceProperty_SoundBankURL).

/// Whether the unit takes MIDI (a music device, music effect or MIDI processor).
private func takesMIDI(_ handle: UnitHandle) -> Bool {
    [kAudioUnitType_MusicDevice, kAudioUnitType_MusicEffect, kAudioUnitType_MIDIProcessor]
        .contains(handle.unit.componentDescription.type.rawValue)
}

/// Queues one MIDI message for the unit's next cycle at `offset`.
private func send(_ handle: UnitHandle, _ status: UInt8, _ data1: UInt8, _ data2: UInt8, offset: UInt32) throws(AudioUnitError) {
    try handle.unit.sendMIDIEvent(MIDIEvent(offset: Int32(clamping: offset), status: status, data1: data1, data2: data2))
}

/// `MusicDeviceMIDIEvent`: a channel message (status 0x80–0xEF, data bytes < 128) for the
/// next cycle at `inOffsetSampleFrame`; badComponentSelector for a unit that takes no MIDI.
/// - Thread: [control]
@_cdecl("MusicDeviceMIDIEvent")
public func _MusicDeviceMIDIEvent(_ inUnit: OpaquePointer?, _ inStatus: UInt32, _ inData1: UInt32, _ inData2: UInt32, _ inOffset: UInt32) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        guard takesMIDI(handle) else { return badComponentSelector }
        guard (0x80...0xEF).contains(inStatus), inData1 < 128, inData2 < 128 else { return kAudio_ParamError }
        try send(handle, UInt8(inStatus), UInt8(inData1), UInt8(inData2), offset: inOffset)
        return noErr
    }
}

/// `MusicDeviceSysEx`: a whole message (F0 … F7, at most ``SysExQueue/maximumLength``
/// bytes) for the start of the unit's next render call, through the unit's bounded SysEx
/// queue (the sampler: GM/GS/XG resets, master volume); badComponentSelector for a unit that
/// takes no SysEx, kAudio_ParamError for no message, one not framed by F0 and F7 or one too
/// long, kAudioUnitErr_CannotDoInCurrentContext when the queue is full.
/// - Thread: [control]
@_cdecl("MusicDeviceSysEx")
public func _MusicDeviceSysEx(_ inUnit: OpaquePointer?, _ inData: UnsafePointer<UInt8>?, _ inLength: UInt32) -> OSStatus {
    withUnit(inUnit) { handle in
        guard takesMIDI(handle), let queue = (try? handle.unit.value(of: SysExQueue.property)) ?? nil else { return badComponentSelector }
        guard let inData, inLength >= 2, inData[0] == 0xF0, inData[Int(inLength) - 1] == 0xF7,
              Int(inLength) <= SysExQueue.maximumLength else { return kAudio_ParamError }
        return queue.send(UnsafeBufferPointer(start: inData, count: Int(inLength))) ? noErr : kAudioUnitErr_CannotDoInCurrentContext
    }
}

/// `MusicDeviceStartNote`: a note-on of `mPitch` (rounded to a key) at `mVelocity` on
/// channel `inGroupID` (0–15); an instrument other than kMusicNoteEvent_UseGroupInstrument
/// is chosen first (bank MSB in bits 16–23, LSB in 8–15, program in 0–7, as the DLS synth
/// numbers them). The note instance ID is the key with the channel in bits 8–11.
/// - Thread: [control]
@_cdecl("MusicDeviceStartNote")
public func _MusicDeviceStartNote(
    _ inUnit: OpaquePointer?, _ inInstrument: UInt32, _ inGroupID: UInt32, _ outNoteInstanceID: UnsafeMutablePointer<UInt32>?,
    _ inOffset: UInt32, _ inParams: UnsafePointer<MusicDeviceNoteParams>?
) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        guard takesMIDI(handle) else { return badComponentSelector }
        guard let inParams, let outNoteInstanceID, inGroupID < 16, inParams.pointee.argCount >= 2 else { return kAudio_ParamError }
        let key = inParams.pointee.mPitch.rounded()
        let velocity = inParams.pointee.mVelocity.rounded()
        guard (0...127).contains(key), (1...127).contains(velocity) else { return kAudio_ParamError }
        let channel = UInt8(inGroupID)
        if inInstrument != kMusicNoteEvent_UseGroupInstrument {
            try send(handle, 0xB0 | channel, 0, UInt8((inInstrument >> 16) & 0x7F), offset: inOffset)
            try send(handle, 0xB0 | channel, 32, UInt8((inInstrument >> 8) & 0x7F), offset: inOffset)
            try send(handle, 0xC0 | channel, UInt8(inInstrument & 0x7F), 0, offset: inOffset)
        }
        try send(handle, 0x90 | channel, UInt8(key), UInt8(velocity), offset: inOffset)
        outNoteInstanceID.pointee = UInt32(key) | inGroupID << 8
        return noErr
    }
}

/// `MusicDeviceStopNote`: the note-off of a note MusicDeviceStartNote started.
/// - Thread: [control]
@_cdecl("MusicDeviceStopNote")
public func _MusicDeviceStopNote(_ inUnit: OpaquePointer?, _ inGroupID: UInt32, _ inNoteInstanceID: UInt32, _ inOffset: UInt32) -> OSStatus {
    withUnit(inUnit) { handle throws(AudioUnitError) in
        guard takesMIDI(handle) else { return badComponentSelector }
        guard inGroupID < 16, inNoteInstanceID < 0x1000, inNoteInstanceID >> 8 == inGroupID else { return kAudio_ParamError }
        try send(handle, 0x80 | UInt8(inGroupID), UInt8(inNoteInstanceID & 0x7F), 0, offset: inOffset)
        return noErr
    }
}

// MARK: - The sampler's properties

/// A sampler property's (size, writable), nil when `id` is none of them or the unit is no
/// sampler (AudioUnitProperties then answers). Global scope only.
func samplerPropertyInfo(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32) throws(StatusError) -> (size: Int, writable: Bool)? {
    guard handle.unit is SamplerUnit else { return nil }
    let info: (Int, Bool)
    switch id {
    case kAUSamplerProperty_LoadInstrument: info = (MemoryLayout<AUSamplerInstrumentData>.size, true)
    case kMusicDeviceProperty_SoundBankURL: info = (MemoryLayout<OpaquePointer>.size, true)
    case kMusicDeviceProperty_SoundBankFSRef: info = (MemoryLayout<FSRef>.size, true)
    case kAUSamplerProperty_LoadAudioFiles: info = (MemoryLayout<OpaquePointer>.size, true)
    default: return nil
    }
    guard scope == kAudioUnitScope_Global else { throw StatusError(kAudioUnitErr_InvalidScope) }
    return info
}

/// `AudioUnitGetPropertyInfo` / `GetProperty` / `SetProperty` for the sampler's properties:
/// the status, or nil for a property AudioUnitProperties answers.
/// `LoadInstrument` and `LoadAudioFiles` are write-only (reading them is
/// kAudioUnitErr_InvalidProperty);
/// `SoundBankURL` reads as a new CFURL (the caller releases it), NULL before a bank is loaded;
/// `SoundBankFSRef` is write-only.
func samplerProperty(
    _ handle: UnitHandle, _ id: UInt32, _ scope: UInt32, get outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?
) -> OSStatus? {
    do {
        guard try samplerPropertyInfo(handle, id, scope) != nil, let sampler = handle.unit as? SamplerUnit else { return nil }
        guard id == kMusicDeviceProperty_SoundBankURL else { return kAudioUnitErr_InvalidProperty }   // write-only ones
        let path = (try? sampler.value(of: SamplerUnit.soundBankURL)) ?? ""
        return copyOut(path.isEmpty ? nil : retainedFileURL(path), outData, ioDataSize)
    } catch {
        return error.status
    }
}

/// Sets a sampler property (see ``samplerProperty(_:_:_:get:_:)``): SoundBankURL and
/// SoundBankFSRef (an FSRef from FSPathMakeRef) load a bank as a GM module; LoadInstrument loads
/// the SoundFont (SF2, SF3) preset `presetID` of bank MSB/LSB (0x79 melodic, 0x78
/// percussion; the LSB is the SoundFont bank), 0-based as Apple's; a DLS or SF2 preset
/// type takes a SoundFont, an audio file type one audio file as ``loadAudioFiles(_:)`` takes
/// it; AUPreset and EXS24 are kAudio_UnimplementedError. LoadAudioFiles takes a CFArray of
/// file CFURLs (``audioFileZones(_:)``).
func setSamplerProperty(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32, _ inData: UnsafeRawPointer?, _ inDataSize: UInt32) -> OSStatus? {
    do {
        guard let info = try samplerPropertyInfo(handle, id, scope), let sampler = handle.unit as? SamplerUnit else { return nil }
        guard let inData, Int(inDataSize) == info.size else { return kAudioUnitErr_InvalidPropertyValue }
        if id == kMusicDeviceProperty_SoundBankURL || id == kMusicDeviceProperty_SoundBankFSRef {
            let path = id == kMusicDeviceProperty_SoundBankURL ? filePath(of: inData.load(as: OpaquePointer?.self)) : FSRefTable.path(of: inData)
            guard let path else { return kAudio_ParamError }
            try sampler.loadSoundBank(path: path)
            return noErr
        }
        if id == kAUSamplerProperty_LoadAudioFiles {
            guard let array = inData.load(as: UnsafeRawPointer?.self), let urls = cfObject(array) as? NSArray else { return kAudioUnitErr_InvalidPropertyValue }
            try sampler.loadAudioFiles(audioFileZones(urls.map { $0 as AnyObject }))
            return noErr
        }
        let data = inData.loadUnaligned(as: AUSamplerInstrumentData.self)
        switch data.instrumentType {
        case UInt8(kInstrumentType_DLSPreset): break
        case UInt8(kInstrumentType_Audiofile):
            guard let url = data.fileURL?.takeUnretainedValue() else { return kAudio_ParamError }
            try sampler.loadAudioFiles(audioFileZones([url]))
            return noErr
        case UInt8(kInstrumentType_AUPreset), UInt8(kInstrumentType_EXS24): return kAudio_UnimplementedError
        default: return kAudio_ParamError
        }
        guard let path = filePath(of: data.fileURL.map { OpaquePointer($0.toOpaque()) }) else { return kAudio_ParamError }
        guard data.presetID < 128, data.bankLSB < 128 else { return kAudioUnitErr_InvalidPropertyValue }
        let instrument = SamplerInstrument(bankMSB: data.bankMSB, bankLSB: data.bankLSB, program: data.presetID)
        let loaded = (try? sampler.value(of: SamplerUnit.soundBankURL)) ?? ""
        if !loaded.isEmpty, loaded == URL(fileURLWithPath: path).standardizedFileURL.path {
            try sampler.loadInstrument(instrument)
        } else {
            try sampler.loadSoundBank(path: path, instrument: instrument)
        }
        return noErr
    } catch {
        return status(of: error)
    }
}

/// The zones of audio files given as CFURLs (`kAUSamplerProperty_LoadAudioFiles`), as Apple
/// maps them: each on the key of its file's instrument chunk (WAV `smpl`, AIFF `INST`), the
/// others on consecutive keys from 60 (middle C). Each file is read whole (AUFiles,
/// libsndfile). An element that is no file URL is kAudioUnitErr_InvalidPropertyValue, a file
/// that cannot be read the reader's error (a missing one kAudioUnitErr_InvalidFilePath).
func audioFileZones(_ urls: [AnyObject]) throws(AudioUnitError) -> [SamplerAudioZone] {
    var nextKey = 60
    var zones: [SamplerAudioZone] = []
    for (index, object) in urls.enumerated() {
        guard let url = object as? NSURL, url.isFileURL, let path = url.path else {
            throw AudioUnitError(.invalidPropertyValue, "LoadAudioFiles: element \(index) is no file URL")
        }
        let reader = try AudioFileReader(path: path)
        let samples = try reader.readAll()
        let channels = withExtendedLifetime(samples) {
            (0..<reader.info.channels).map { Array(UnsafeBufferPointer(start: samples.buffers().channelPointers[$0], count: reader.info.frames)) }
        }
        let key: Int
        if let rootKey = reader.rootKey {
            key = rootKey
        } else {
            key = nextKey
            nextKey += 1
        }
        zones.append(SamplerAudioZone(name: URL(fileURLWithPath: path).lastPathComponent, sampleRate: reader.info.sampleRate, channels: channels, rootKey: key))
    }
    return zones
}
