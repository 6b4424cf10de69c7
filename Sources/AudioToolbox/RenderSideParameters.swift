internal import AUCore

// AudioUnitGetParameter, AudioUnitSetParameter and AudioUnitScheduleParameters called on the
// render thread (from a render callback or a render notification, as Core Audio programs
// do): no API lock (a control call holding it may be waiting for this very render), no
// handle table look-up, no allocation. The unit is found through the handle the pointer is,
// the parameter by a scan of the unit's plain table, and a change goes into the unit's
// render-side event queue, applied at its next render (in this cycle when it renders after
// the caller). Only what a render may do: a wrong value or a full queue is refused.

/// Runs `body` with the unit of `pointer` and the slot of the parameter, on the render thread.
/// - Thread: [render]
func renderSideParameter(
    _ pointer: OpaquePointer?, _ id: UInt32, _ scopeValue: UInt32, _ element: UInt32, _ body: (EngineUnit, Int) -> OSStatus
) -> OSStatus {
    guard let pointer else { return kAudio_ParamError }
    guard let scope = Scope(c: scopeValue) else { return kAudioUnitErr_InvalidScope }
    return Unmanaged<UnitHandle>.fromOpaque(UnsafeRawPointer(pointer))._withUnsafeGuaranteedRef { handle in
        guard let index = handle.unit.parameterIndexFromRender(ParameterAddress(id, scope: scope, element: Int(element))) else {
            return kAudioUnitErr_InvalidParameter
        }
        return body(handle.unit, index)
    }
}

/// `AudioUnitScheduleParameters` on the render thread: every event checked first, then all
/// scheduled (a refused one schedules none).
/// - Thread: [render]
func scheduleParametersFromRender(_ pointer: OpaquePointer?, _ events: UnsafePointer<AudioUnitParameterEvent>?, _ count: UInt32) -> OSStatus {
    guard let events else { return count == 0 ? noErr : kAudio_ParamError }
    let list = UnsafeBufferPointer(start: events, count: Int(count))
    for event in list {
        let status = renderSideParameter(pointer, event.parameter, event.scope, event.element) { unit, index in
            switch event.eventType {
            case kParameterEvent_Immediate: return unit.parameterAcceptsFromRender(event.eventValues.immediate.value, at: index) ? noErr : kAudioUnitErr_InvalidParameterValue
            case kParameterEvent_Ramped:
                let ramp = event.eventValues.ramp
                return unit.parameterAcceptsFromRender(ramp.startValue, at: index) && unit.parameterAcceptsFromRender(ramp.endValue, at: index)
                    ? noErr : kAudioUnitErr_InvalidParameterValue
            default: return kAudio_ParamError
            }
        }
        if status != noErr { return status }
    }
    for event in list {
        let status = renderSideParameter(pointer, event.parameter, event.scope, event.element) { unit, index in
            let scheduled: Bool
            if event.eventType == kParameterEvent_Immediate {
                let immediate = event.eventValues.immediate
                scheduled = unit.scheduleParameterFromRender(at: index, value: immediate.value, offset: Int(immediate.bufferOffset))
            } else {
                let ramp = event.eventValues.ramp
                scheduled = unit.scheduleParameterFromRender(
                    at: index, value: ramp.endValue, offset: Int(ramp.startBufferOffset), rampFrames: Int(ramp.durationInFrames), rampStart: ramp.startValue)
            }
            return scheduled ? noErr : kAudioUnitErr_CannotDoInCurrentContext
        }
        if status != noErr { return status }
    }
    return noErr
}
