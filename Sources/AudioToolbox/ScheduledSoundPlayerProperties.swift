internal import AUCore

// The ScheduledSoundPlayer's Apple properties through AudioUnitGet/SetProperty, tried after
// the file player's (ScheduledSoundPlayerUnit.swift has the unit): ScheduleAudioSlice
// (write: a pointer the unit keeps), ScheduleStartTimeStamp (write: a sample time, -1 the next
// render), CurrentPlayTime (read: frames since the start). Global scope only.

/// A scheduled sound player property's (size, writable), nil when `id` is none of them or the
/// unit is no scheduled sound player.
func scheduledSoundPlayerPropertyInfo(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32) throws(StatusError) -> (size: Int, writable: Bool)? {
    guard handle.unit is ScheduledSoundPlayerUnit else { return nil }
    let info: (Int, Bool)
    switch id {
    case kAudioUnitProperty_ScheduleAudioSlice: info = (MemoryLayout<ScheduledAudioSlice>.size, true)
    case kAudioUnitProperty_ScheduleStartTimeStamp: info = (MemoryLayout<AudioTimeStamp>.size, true)
    case kAudioUnitProperty_CurrentPlayTime: info = (MemoryLayout<AudioTimeStamp>.size, false)
    default: return nil
    }
    guard scope == kAudioUnitScope_Global else { throw StatusError(kAudioUnitErr_InvalidScope) }
    return info
}

/// Reads CurrentPlayTime; the write-only properties are kAudioUnitErr_InvalidProperty.
func scheduledSoundPlayerProperty(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32, get outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus? {
    do {
        guard let info = try scheduledSoundPlayerPropertyInfo(handle, id, scope), let player = handle.unit as? ScheduledSoundPlayerUnit else { return nil }
        guard let outData, let ioDataSize else { return kAudio_ParamError }
        guard Int(ioDataSize.pointee) >= info.size else { return kAudioUnitErr_InvalidPropertyValue }
        guard id == kAudioUnitProperty_CurrentPlayTime else { return kAudioUnitErr_InvalidProperty }
        outData.storeBytes(of: playTime(player.framesPlayed.load(ordering: .acquiring)), as: AudioTimeStamp.self)
        ioDataSize.pointee = UInt32(info.size)
        return noErr
    } catch {
        return error.status
    }
}

/// Schedules a slice (its frames and buffer list must be there: kAudioUnitErr_InvalidPropertyValue
/// otherwise; looping and interrupting slices: kAudio_UnimplementedError) or starts the timeline.
func setScheduledSoundPlayerProperty(_ handle: UnitHandle, _ id: UInt32, _ scope: UInt32, _ inData: UnsafeRawPointer?, _ inDataSize: UInt32) -> OSStatus? {
    do {
        guard let info = try scheduledSoundPlayerPropertyInfo(handle, id, scope), let player = handle.unit as? ScheduledSoundPlayerUnit else { return nil }
        guard info.writable else { return kAudioUnitErr_PropertyNotWritable }
        guard let inData else { return kAudio_ParamError }
        guard Int(inDataSize) == info.size else { return kAudioUnitErr_InvalidPropertyValue }
        if id == kAudioUnitProperty_ScheduleAudioSlice {
            let slice = UnsafeMutablePointer(mutating: inData.assumingMemoryBound(to: ScheduledAudioSlice.self))
            let loops = kScheduledAudioSliceFlag_Loop | kScheduledAudioSliceFlag_Interrupt | kScheduledAudioSliceFlag_InterruptAtLoop
            guard slice.pointee.mFlags & loops == 0 else { return kAudio_UnimplementedError }
            guard let list = slice.pointee.mBufferList, list.pointee.mNumberBuffers > 0, slice.pointee.mNumberFrames > 0,
                  slice.pointee.mTimeStamp.mFlags & kAudioTimeStampSampleTimeValid != 0,
                  UnsafeMutableAudioBufferListPointer(list).allSatisfy({ $0.mData != nil && Int($0.mDataByteSize) >= Int(slice.pointee.mNumberFrames) * 4 })
            else { return kAudioUnitErr_InvalidPropertyValue }
            player.schedule(slice)
        } else {
            let time = inData.loadUnaligned(as: AudioTimeStamp.self)
            guard time.mFlags & kAudioTimeStampSampleTimeValid != 0 else { return kAudioUnitErr_InvalidPropertyValue }
            player.start(atSampleTime: time.mSampleTime)
        }
        return noErr
    } catch {
        return error.status
    }
}
