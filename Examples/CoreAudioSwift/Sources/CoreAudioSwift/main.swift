// An AUGraph rendered offline, written as on macOS: a render callback into a Multichannel
// Mixer, the mixer into a GenericOutput unit that the program pulls with AudioUnitRender.
// Prints the RMS level of one second of a 440 Hz tone at 0.5 (about 0.354) and exits 0.
import AudioToolbox
import Foundation

func check(_ status: OSStatus, _ what: String) {
    if status != noErr {
        FileHandle.standardError.write("CoreAudioSwift: \(what) failed: \(status)\n".data(using: .utf8)!)
        exit(1)
    }
}

final class ToneState {
    var phase = 0.0
    let step = 2.0 * Double.pi * 440.0 / 44_100.0
}

let renderTone: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let tone = Unmanaged<ToneState>.fromOpaque(refCon!).takeUnretainedValue()
    let buffers = UnsafeMutableAudioBufferListPointer(ioData)!
    let start = tone.phase
    for buffer in buffers {
        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
        var phase = start
        for frame in 0..<Int(frames) {
            samples[frame] = Float(sin(phase) * 0.5)
            phase += tone.step
        }
        tone.phase = phase
    }
    return noErr
}

var graph: AUGraph?
check(NewAUGraph(&graph), "NewAUGraph")
var mixerDescription = AudioComponentDescription(
    componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
var outputDescription = AudioComponentDescription(
    componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
var mixerNode = AUNode(), outputNode = AUNode()
check(AUGraphAddNode(graph!, &mixerDescription, &mixerNode), "AUGraphAddNode mixer")
check(AUGraphAddNode(graph!, &outputDescription, &outputNode), "AUGraphAddNode output")
check(AUGraphOpen(graph!), "AUGraphOpen")
var mixerUnit: AudioUnit?, outputUnit: AudioUnit?
check(AUGraphNodeInfo(graph!, mixerNode, nil, &mixerUnit), "AUGraphNodeInfo")
check(AUGraphNodeInfo(graph!, outputNode, nil, &outputUnit), "AUGraphNodeInfo")

var sampleRate: Float64 = 44_100
check(AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &sampleRate, UInt32(MemoryLayout<Float64>.size)), "SampleRate")
var busCount: UInt32 = 1
check(AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &busCount, UInt32(MemoryLayout<UInt32>.size)), "ElementCount")
var format = AudioStreamBasicDescription(
    mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
    mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
check(AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), "StreamFormat")

let tone = ToneState()
var callback = AURenderCallbackStruct(inputProc: renderTone, inputProcRefCon: Unmanaged.passUnretained(tone).toOpaque())
check(AUGraphSetNodeInputCallback(graph!, mixerNode, 0, &callback), "AUGraphSetNodeInputCallback")
check(AUGraphConnectNodeInput(graph!, mixerNode, 0, outputNode, 0), "AUGraphConnectNodeInput")
check(AUGraphInitialize(graph!), "AUGraphInitialize")
var initialized: DarwinBoolean = false
check(AUGraphIsInitialized(graph!, &initialized), "AUGraphIsInitialized")
guard initialized.boolValue else { exit(1) }

let frames = 512
let buffers = AudioBufferList.allocate(maximumBuffers: 2)
let left = UnsafeMutablePointer<Float>.allocate(capacity: frames), right = UnsafeMutablePointer<Float>.allocate(capacity: frames)
var sum = 0.0, count = 0
var timestamp = AudioTimeStamp()
timestamp.mFlags = kAudioTimeStampSampleTimeValid
for cycle in 0..<(44_100 / frames) {
    buffers[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: left)
    buffers[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: right)
    timestamp.mSampleTime = Float64(cycle * frames)
    var flags = AudioUnitRenderActionFlags()
    check(AudioUnitRender(outputUnit!, &flags, &timestamp, 0, UInt32(frames), buffers.unsafeMutablePointer), "AudioUnitRender")
    for frame in 0..<frames { sum += Double(left[frame] * left[frame]); count += 1 }
}
check(DisposeAUGraph(graph!), "DisposeAUGraph")
let level = (sum / Double(count)).squareRoot()
print(String(format: "rendered %d frames offline, RMS %.3f", count, level))
exit(abs(level - 0.354) < 0.02 ? 0 : 1)
