internal import AUCore

// The AUAudioFilePlayer's Apple properties through AudioUnitGet/SetProperty, which try them
// after the sampler's (AudioFilePlayerUnit.swift has the unit).

/// The size and writability of a property of Apple's music devices or players, nil for
/// one AudioUnitProperties answers.
func appleUnitPropertyInfo(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32) throws(StatusError) -> (size: Int, writable: Bool)? {
    if let info = try samplerPropertyInfo(handle, id, scope) { return info }
    if let info = try filePlayerPropertyInfo(handle, id, scope) { return info }
    return try scheduledSoundPlayerPropertyInfo(handle, id, scope)
}

/// A file player property's (size, writable), nil when `id` is none of them or the unit is
/// no file player. Global scope only.
func filePlayerPropertyInfo(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32) throws(StatusError) -> (size: Int, writable: Bool)? {
    guard let player = handle.unit as? AudioFilePlayerUnit else { return nil }
    let info: (Int, Bool)
    switch id {
    case kAudioUnitProperty_ScheduledFileIDs: info = (player.files.count * MemoryLayout<OpaquePointer>.size, true)
    case kAudioUnitProperty_ScheduledFileRegion: info = (MemoryLayout<ScheduledAudioFileRegion>.size, true)
    case kAudioUnitProperty_ScheduledFilePrime: info = (4, true)
    case kAudioUnitProperty_ScheduleStartTimeStamp: info = (MemoryLayout<AudioTimeStamp>.size, true)
    case kAudioUnitProperty_CurrentPlayTime: info = (MemoryLayout<AudioTimeStamp>.size, false)
    case kAudioUnitProperty_ScheduledFileBufferSizeFrames, kAudioUnitProperty_ScheduledFileNumberBuffers, kAudioUnitProperty_ScheduleAudioSlice:
        throw StatusError(kAudio_UnimplementedError)
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

/// Reads a file player property: ScheduledFileIDs, CurrentPlayTime (sample time since the
/// start, valid once started); the write-only ones are kAudioUnitErr_InvalidProperty.
func filePlayerProperty(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32, get outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus? {
    do {
        guard let info = try filePlayerPropertyInfo(handle, id, scope), let player = handle.unit as? AudioFilePlayerUnit else { return nil }
        guard let outData, let ioDataSize else { return kAudio_ParamError }
        guard Int(ioDataSize.pointee) >= info.size else { return kAudioUnitErr_InvalidPropertyValue }
        switch id {
        case kAudioUnitProperty_ScheduledFileIDs:
            for (index, file) in player.files.enumerated() { outData.storeBytes(of: cPointer(file), toByteOffset: index * 8, as: OpaquePointer.self) }
        case kAudioUnitProperty_CurrentPlayTime:
            outData.storeBytes(of: playTime(player.framesPlayed.load(ordering: .acquiring)), as: AudioTimeStamp.self)
        default: return kAudioUnitErr_InvalidProperty
        }
        ioDataSize.pointee = UInt32(info.size)
        return noErr
    } catch {
        return error.status
    }
}

/// Sets a file player property: the files (live AudioFileIDs open for reading), a region of
/// one of them (read now: the region's time stamp is its sample offset in the timeline;
/// `mFramesToPlay` UInt32.max plays to the end; a completion procedure is unimplemented),
/// a prime (the regions are already read: it returns at once), the start time stamp
/// (sample time; -1 the next render), which publishes the regions to the render thread.
func setFilePlayerProperty(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32, _ inData: UnsafeRawPointer?, _ inDataSize: UInt32) -> OSStatus? {
    do {
        guard let info = try filePlayerPropertyInfo(handle, id, scope), let player = handle.unit as? AudioFilePlayerUnit else { return nil }
        guard info.writable else { return kAudioUnitErr_PropertyNotWritable }
        guard let inData else { return kAudio_ParamError }
        switch id {
        case kAudioUnitProperty_ScheduledFileIDs:
            guard Int(inDataSize) % 8 == 0 else { return kAudioUnitErr_InvalidPropertyValue }
            var files: [AudioFileHandle] = []
            for index in 0..<(Int(inDataSize) / 8) {
                guard let file = AudioFileHandle.live.lookup(inData.loadUnaligned(fromByteOffset: index * 8, as: OpaquePointer?.self)), file.reader != nil
                else { return kAudioUnitErr_InvalidPropertyValue }
                files.append(file)
            }
            player.files = files
        case kAudioUnitProperty_ScheduledFileRegion:
            guard Int(inDataSize) == info.size else { return kAudioUnitErr_InvalidPropertyValue }
            let region = inData.loadUnaligned(as: ScheduledAudioFileRegion.self)
            guard region.mCompletionProc == nil else { return kAudio_UnimplementedError }
            guard let file = player.files.first(where: { cPointer($0) == region.mAudioFile }), region.mTimeStamp.mSampleTime >= 0 else {
                return kAudioUnitErr_InvalidPropertyValue
            }
            try player.schedule(file, start: Int(region.mStartFrame), frames: region.mFramesToPlay == UInt32.max ? nil : Int(region.mFramesToPlay),
                                loops: Int(region.mLoopCount), offset: Int(region.mTimeStamp.mSampleTime))
        case kAudioUnitProperty_ScheduledFilePrime:
            guard inDataSize == 4 else { return kAudioUnitErr_InvalidPropertyValue }
        default:
            guard Int(inDataSize) == info.size else { return kAudioUnitErr_InvalidPropertyValue }
            let time = inData.loadUnaligned(as: AudioTimeStamp.self)
            guard time.mFlags & kAudioTimeStampSampleTimeValid != 0 else { return kAudioUnitErr_InvalidPropertyValue }
            player.start(atSampleTime: time.mSampleTime)
        }
        return noErr
    } catch {
        return status(of: error)
    }
}
