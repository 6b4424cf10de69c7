import AudioToolbox
import Glibc
import Testing

/// The AUGraph functions through the C API on an offline graph (a C render callback into a
/// mixer, the mixer into a GenericOutput node pulled with AudioUnitRender): node bookkeeping,
/// the life cycle flags, connections made, removed and cleared with AUGraphUpdate, render
/// notifications, CPU load and CAShow.
@Suite struct GraphFunctionTests {
    /// A constant 0.5 on every channel.
    static let constant: AURenderCallback = { _, _, _, _, frames, ioData in
        for buffer in UnsafeMutableAudioBufferListPointer(ioData)! {
            let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
            for frame in 0..<Int(frames) { samples[frame] = 0.5 }
        }
        return noErr
    }

    static let count: AURenderCallback = { refCon, flags, _, _, _, _ in
        if flags!.pointee & kAudioUnitRenderAction_PostRender != 0 { refCon!.assumingMemoryBound(to: Int.self).pointee += 1 }
        return noErr
    }

    /// Renders one cycle of 64 frames from `output` and returns the first left sample.
    static func renderOnce(_ output: AudioUnit) -> (OSStatus, Float) {
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 64), right = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { left.deallocate(); right.deallocate() }
        left[0] = -1
        list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 256, mData: left)
        list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 256, mData: right)
        var flags: AudioUnitRenderActionFlags = 0
        var timestamp = AudioTimeStamp()
        timestamp.mFlags = kAudioTimeStampSampleTimeValid
        let status = AudioUnitRender(output, &flags, &timestamp, 0, 64, list.unsafeMutablePointer)
        return (status, left[0])
    }

    @Test func aGraphIsBuiltRenderedEditedAndTakenApart() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        var mixerDescription = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var outputDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var eqDescription = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_AUiPodEQ, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var mixer = AUNode(), output = AUNode(), eq = AUNode()
        #expect(AUGraphAddNode(graph, &mixerDescription, &mixer) == noErr)
        #expect(AUGraphAddNode(graph, &outputDescription, &output) == noErr)
        #expect(AUGraphAddNode(graph, &eqDescription, &eq) == noErr)
        var count: UInt32 = 0
        #expect(AUGraphGetNodeCount(graph, &count) == noErr && count == 3)
        #expect(AUGraphRemoveNode(graph, eq) == noErr)
        #expect(AUGraphGetNodeCount(graph, &count) == noErr && count == 2)
        var second = AUNode()
        #expect(AUGraphGetIndNode(graph, 1, &second) == noErr && second == output)

        var flag: DarwinBoolean = true
        #expect(AUGraphIsOpen(graph, &flag) == noErr && !flag.boolValue)
        var unit: AudioUnit?
        #expect(AUGraphNodeInfo(graph, output, nil, &unit) == noErr && unit == nil, "no unit before AUGraphOpen")
        #expect(AUGraphOpen(graph) == noErr)
        #expect(AUGraphIsOpen(graph, &flag) == noErr && flag.boolValue)
        var described = AudioComponentDescription()
        var outputUnit: AudioUnit?
        #expect(AUGraphNodeInfo(graph, output, &described, &outputUnit) == noErr)
        #expect(described.componentSubType == kAudioUnitSubType_GenericOutput && outputUnit != nil)
        #expect(CAShow(UnsafeMutableRawPointer(outputUnit!)) == noErr)

        var callback = AURenderCallbackStruct(inputProc: Self.constant, inputProcRefCon: nil)
        #expect(AUGraphSetNodeInputCallback(graph, mixer, 0, &callback) == noErr)
        #expect(AUGraphConnectNodeInput(graph, mixer, 0, output, 0) == noErr)
        let notifications = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        notifications.pointee = 0
        defer { notifications.deallocate() }
        #expect(AUGraphAddRenderNotify(graph, Self.count, notifications) == noErr)
        #expect(AUGraphInitialize(graph) == noErr)
        #expect(AUGraphIsInitialized(graph, &flag) == noErr && flag.boolValue)
        #expect(AUGraphIsRunning(graph, &flag) == noErr && !flag.boolValue)

        var (status, sample) = Self.renderOnce(outputUnit!)
        #expect(status == noErr && abs(sample - 0.5) < 1e-6, "the callback through the mixer: \(sample)")
        #expect(notifications.pointee == 1)
        var load: Float32 = -1
        #expect(AUGraphGetCPULoad(graph, &load) == noErr && load >= 0)
        var maxLoad: Float32 = -1
        #expect(AUGraphGetMaxCPULoad(graph, &maxLoad) == noErr && maxLoad >= load * 0.999, "max \(maxLoad), average \(load)")
        #expect(AUGraphGetMaxCPULoad(graph, nil) == kAudio_ParamError)

        // Disconnected and updated: silence; connected again: the tone.
        #expect(AUGraphDisconnectNodeInput(graph, output, 0) == noErr)
        var updated: DarwinBoolean = false
        #expect(AUGraphUpdate(graph, &updated) == noErr && updated.boolValue)
        (status, sample) = Self.renderOnce(outputUnit!)
        #expect(status == noErr && sample == 0, "disconnected: \(sample)")
        #expect(AUGraphConnectNodeInput(graph, mixer, 0, output, 0) == noErr)
        #expect(AUGraphUpdate(graph, nil) == noErr)
        (status, sample) = Self.renderOnce(outputUnit!)
        #expect(abs(sample - 0.5) < 1e-6, "connected again: \(sample)")

        // Every connection and callback cleared.
        #expect(AUGraphClearConnections(graph) == noErr)
        #expect(AUGraphUpdate(graph, nil) == noErr)
        (status, sample) = Self.renderOnce(outputUnit!)
        #expect(sample == 0, "cleared: \(sample)")
        #expect(AUGraphRemoveRenderNotify(graph, Self.count, notifications) == noErr)
        let before = notifications.pointee
        _ = Self.renderOnce(outputUnit!)
        #expect(notifications.pointee == before, "no notification once removed")

        #expect(AUGraphUninitialize(graph) == noErr)
        #expect(AUGraphIsInitialized(graph, &flag) == noErr && !flag.boolValue)
        (status, _) = Self.renderOnce(outputUnit!)
        #expect(status == kAudioUnitErr_Uninitialized)
        #expect(AUGraphClose(graph) == noErr)
        #expect(AUGraphIsOpen(graph, &flag) == noErr && !flag.boolValue)
        #expect(AudioUnitInitialize(outputUnit) == badComponentInstance, "a closed graph's unit handle is gone")
        #expect(DisposeAUGraph(graph) == noErr)
        #expect(AUGraphOpen(graph) == kAudio_ParamError, "a disposed graph is refused")
    }
}
