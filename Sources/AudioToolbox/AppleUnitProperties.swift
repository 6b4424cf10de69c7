internal import AUCore
internal import AUAppleUnits

// The Apple properties of Apple's units through AudioUnitGet/SetProperty, tried before
// AudioUnitProperties' own: the sampler's (MusicDeviceFunctions.swift), the players' and
// AUNBandEQ's. Global scope only.
// The players (AUAppleUnits: AudioFilePlayerUnit, ScheduledSoundPlayerUnit) share
// ScheduleStartTimeStamp (write: a sample time, -1 the next render) and CurrentPlayTime (read:
// frames since the start); the file player takes ScheduledFileIDs (live AudioFileIDs open for
// reading), ScheduledFileRegion (read now, into its timeline) and ScheduledFilePrime (the
// regions are already read: it returns at once); the sound player takes ScheduleAudioSlice (a
// pointer it keeps). AUNBandEQ has NumberOfBands (while uninitialized) and MaxNumberOfBands.

/// The size and writability of an Apple unit's own property, nil for one AudioUnitProperties answers.
func appleUnitPropertyInfo(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32) throws(StatusError) -> (size: Int, writable: Bool)? {
    if let info = try samplerPropertyInfo(handle, id, scope) { return info }
    let info: (size: Int, writable: Bool)
    switch (handle.unit, id) {
    case (is ScheduledPlayer, kAudioUnitProperty_ScheduleStartTimeStamp): info = (MemoryLayout<AudioTimeStamp>.size, true)
    case (is ScheduledPlayer, kAudioUnitProperty_CurrentPlayTime): info = (MemoryLayout<AudioTimeStamp>.size, false)
    case (let player as AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFileIDs): info = (player.files.count * MemoryLayout<OpaquePointer>.size, true)
    case (is AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFileRegion): info = (MemoryLayout<ScheduledAudioFileRegion>.size, true)
    case (is AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFilePrime): info = (4, true)
    case (is AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFileBufferSizeFrames), (is AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFileNumberBuffers),
         (is AudioFilePlayerUnit, kAudioUnitProperty_ScheduleAudioSlice), (is NBandEqualizer, kAUNBandEQProperty_BiquadCoefficients):
        throw StatusError(kAudio_UnimplementedError)
    case (is ScheduledSoundPlayerUnit, kAudioUnitProperty_ScheduleAudioSlice): info = (MemoryLayout<ScheduledAudioSlice>.size, true)
    case (is NBandEqualizer, kAUNBandEQProperty_NumberOfBands): info = (4, true)
    case (is NBandEqualizer, kAUNBandEQProperty_MaxNumberOfBands): info = (4, false)
    default: return nil
    }
    guard scope == kAudioUnitScope_Global else { throw StatusError(kAudioUnitErr_InvalidScope) }
    return info
}

/// A player's CurrentPlayTime: `frames` since its start, as a sample time.
func playTime(_ frames: Int) -> AudioTimeStamp {
    var time = AudioTimeStamp()
    time.mSampleTime = Double(frames)
    time.mFlags = kAudioTimeStampSampleTimeValid
    return time
}

/// Reads an Apple unit's own property: the sampler's, ScheduledFileIDs, CurrentPlayTime,
/// NumberOfBands, MaxNumberOfBands; the write-only ones are kAudioUnitErr_InvalidProperty.
func appleUnitProperty(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32, get outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus? {
    if let status = samplerProperty(handle, id, scope, get: outData, ioDataSize) { return status }
    do {
        guard let info = try appleUnitPropertyInfo(handle, id, scope) else { return nil }
        guard let outData, let ioDataSize else { return kAudio_ParamError }
        guard Int(ioDataSize.pointee) >= info.size else { return kAudioUnitErr_InvalidPropertyValue }
        switch (handle.unit, id) {
        case (let player as AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFileIDs):
            for (index, file) in player.files.enumerated() { outData.storeBytes(of: file.id, toByteOffset: index * 8, as: OpaquePointer.self) }
        case (let player as ScheduledPlayer, kAudioUnitProperty_CurrentPlayTime):
            outData.storeBytes(of: playTime(player.playedFrames), as: AudioTimeStamp.self)
        case (let equalizer as NBandEqualizer, kAUNBandEQProperty_NumberOfBands):
            outData.storeBytes(of: UInt32(equalizer.numberOfBands), as: UInt32.self)
        case (let equalizer as NBandEqualizer, kAUNBandEQProperty_MaxNumberOfBands):
            outData.storeBytes(of: UInt32(equalizer.maxNumberOfBands), as: UInt32.self)
        default: return kAudioUnitErr_InvalidProperty
        }
        ioDataSize.pointee = UInt32(info.size)
        return noErr
    } catch {
        return error.status
    }
}

/// Sets an Apple unit's own property: the sampler's; a file player's files, a region of
/// one of them (its time stamp is its sample offset in the timeline; `mFramesToPlay`
/// UInt32.max plays to the end; a completion procedure is unimplemented), a prime; a sound
/// player's slice (its frames and buffer list must be there; looping and interrupting slices
/// are unimplemented); a player's start time stamp; AUNBandEQ's number of bands (1 to
/// MaxNumberOfBands, while uninitialized).
func setAppleUnitProperty(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32, _ inData: UnsafeRawPointer?, _ inDataSize: UInt32) -> OSStatus? {
    if let status = setSamplerProperty(handle, id, scope, inData, inDataSize) { return status }
    do {
        guard let info = try appleUnitPropertyInfo(handle, id, scope) else { return nil }
        guard info.writable else { return kAudioUnitErr_PropertyNotWritable }
        guard let inData else { return kAudio_ParamError }
        guard id == kAudioUnitProperty_ScheduledFileIDs || Int(inDataSize) == info.size else { return kAudioUnitErr_InvalidPropertyValue }
        switch (handle.unit, id) {
        case (let player as AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFileIDs):
            guard Int(inDataSize) % 8 == 0 else { return kAudioUnitErr_InvalidPropertyValue }
            var files: [ScheduledFile] = []
            for index in 0..<(Int(inDataSize) / 8) {
                let id = inData.loadUnaligned(fromByteOffset: index * 8, as: OpaquePointer?.self)
                guard let file = AudioFileHandle.live.lookup(id), let id, let reader = file.reader else { return kAudioUnitErr_InvalidPropertyValue }
                files.append(ScheduledFile(id: id, reader: reader))
            }
            player.files = files
        case (let player as AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFileRegion):
            let region = inData.loadUnaligned(as: ScheduledAudioFileRegion.self)
            guard region.mCompletionProc == nil else { return kAudio_UnimplementedError }
            guard let file = player.files.first(where: { $0.id == region.mAudioFile }), region.mTimeStamp.mSampleTime >= 0 else {
                return kAudioUnitErr_InvalidPropertyValue
            }
            try player.schedule(file.reader, start: Int(region.mStartFrame), frames: region.mFramesToPlay == UInt32.max ? nil : Int(region.mFramesToPlay),
                                loops: Int(region.mLoopCount), offset: Int(region.mTimeStamp.mSampleTime))
        case (is AudioFilePlayerUnit, kAudioUnitProperty_ScheduledFilePrime):
            break
        case (let player as ScheduledSoundPlayerUnit, kAudioUnitProperty_ScheduleAudioSlice):
            let slice = UnsafeMutablePointer(mutating: inData.assumingMemoryBound(to: ScheduledAudioSlice.self))
            let loops = kScheduledAudioSliceFlag_Loop | kScheduledAudioSliceFlag_Interrupt | kScheduledAudioSliceFlag_InterruptAtLoop
            guard slice.pointee.mFlags & loops == 0 else { return kAudio_UnimplementedError }
            guard let list = slice.pointee.mBufferList, list.pointee.mNumberBuffers > 0, slice.pointee.mNumberFrames > 0,
                  slice.pointee.mTimeStamp.mFlags & kAudioTimeStampSampleTimeValid != 0,
                  UnsafeMutableAudioBufferListPointer(list).allSatisfy({ $0.mData != nil && Int($0.mDataByteSize) >= Int(slice.pointee.mNumberFrames) * 4 })
            else { return kAudioUnitErr_InvalidPropertyValue }
            player.schedule(slice)
        case (let player as ScheduledPlayer, kAudioUnitProperty_ScheduleStartTimeStamp):
            let time = inData.loadUnaligned(as: AudioTimeStamp.self)
            guard time.mFlags & kAudioTimeStampSampleTimeValid != 0 else { return kAudioUnitErr_InvalidPropertyValue }
            player.start(atSampleTime: time.mSampleTime)
        case (let equalizer as NBandEqualizer, kAUNBandEQProperty_NumberOfBands):
            try equalizer.setNumberOfBands(Int(inData.loadUnaligned(as: UInt32.self)))
        default: return kAudioUnitErr_InvalidProperty
        }
        return noErr
    } catch {
        return status(of: error)
    }
}
