import Foundation
import Synchronization
import AUCore
import AUFiles

// Apple's AUAudioFilePlayer (`augn afpl appl`): regions of audio files (AudioFileIDs) played
// from a start time stamp. A region is read (and resampled to the unit's rate) on the control
// side when it is scheduled, into the unit's timeline; ScheduleStartTimeStamp publishes the
// timeline to the render thread, which copies it out frame by frame: no file access, lock or
// allocation in the render.

/// What the render plays: the regions' samples on one timeline and where it starts.
final class FilePlayerTimeline: @unchecked Sendable {
    let channels: [[Float]]
    /// The sample time of the timeline's frame 0; -1: the first render's.
    let startSampleTime: Double
    init(channels: [[Float]], startSampleTime: Double) {
        self.channels = channels
        self.startSampleTime = startSampleTime
    }
}

/// A file a program named in `ScheduledFileIDs`: its AudioFileID and its reader.
/// - Thread: [control]
public struct ScheduledFile {
    public let id: OpaquePointer
    public let reader: AudioFileReader
    /// - Thread: [control]
    public init(id: OpaquePointer, reader: AudioFileReader) {
        self.id = id
        self.reader = reader
    }
}

/// `augn:afpl:appl`.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
public final class AudioFilePlayerUnit: AudioUnit, @unchecked Sendable {
    /// The files `ScheduledFileIDs` named.
    public var files: [ScheduledFile] = []
    /// The regions scheduled since the last start: samples per channel at the output rate.
    private(set) var pending: [[Float]] = []
    private let timeline = RenderSnapshot<Unmanaged<FilePlayerTimeline>>()
    /// The published timeline, kept alive on the control side.
    private var published: FilePlayerTimeline?
    /// The sample time the first render took as the start (when the start was -1), as bits.
    private let firstRenderTime = Atomic<UInt64>(Double.nan.bitPattern)
    /// Frames since the start (`CurrentPlayTime`), past the timeline's end too.
    let framesPlayed = Atomic<Int>(0)

    init(description: ComponentDescription) {
        super.init(description: description, name: "AUAudioFilePlayer", inputs: [], outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }

    private var outputRate: Double { formats(.output)[0].sampleRate }
    private var outputChannels: Int { formats(.output)[0].channelsPerFrame }

    /// Reads `frames` frames (nil: to the end) of `reader` from `start`, `1 + loops` times, at
    /// the output rate, and mixes them into the pending timeline from frame `offset`.
    /// - Thread: [control]
    public func schedule(_ reader: AudioFileReader, start: Int, frames: Int?, loops: Int, offset: Int) throws(AudioUnitError) {
        guard start >= 0, start <= reader.info.frames, offset >= 0 else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): a region from frame \(start) at offset \(offset) of a file of \(reader.info.frames) frames")
        }
        let count = min(frames ?? Int.max, reader.info.frames - start)
        try reader.seek(toFrame: start)
        let block = OwnedAudioBuffers(channels: reader.info.channels, capacity: max(1, count))
        let got = try withExtendedLifetime(block) { () throws(AudioUnitError) -> Int in try reader.read(into: block.buffers(frameCount: count)) }
        var source: [[Float]] = (0..<reader.info.channels).map { Array(block.buffers(frameCount: got)[$0]) }
        if reader.info.sampleRate != outputRate {
            source = try resample(source, from: reader.info.sampleRate, to: outputRate)
        }
        let once = source.first?.count ?? 0
        let total = offset + once * (1 + loops)
        if pending.isEmpty { pending = Array(repeating: [], count: outputChannels) }
        for channel in 0..<outputChannels where pending[channel].count < total {
            pending[channel] += [Float](repeating: 0, count: total - pending[channel].count)
        }
        for loop in 0...loops {
            for channel in 0..<outputChannels {
                let samples = source[min(channel, source.count - 1)]
                for frame in 0..<once { pending[channel][offset + loop * once + frame] += samples[frame] }
            }
        }
    }

    private func resample(_ channels: [[Float]], from input: Double, to output: Double) throws(AudioUnitError) -> [[Float]] {
        let frames = channels.first?.count ?? 0
        let buffers = OwnedAudioBuffers(channels: channels.count, capacity: max(1, frames))
        let view = buffers.buffers(frameCount: frames)
        for (channel, samples) in channels.enumerated() { for frame in 0..<frames { view.channelPointers[channel][frame] = samples[frame] } }
        let converter = try SampleRateConverter(channels: channels.count, inputRate: input, outputRate: output, maxInputFrames: max(1, frames))
        var result = [[Float]](repeating: [], count: channels.count)
        let collect: (AudioBuffers) throws(AudioUnitError) -> Void = { out in for c in 0..<channels.count { result[c] += out[c] } }
        try withExtendedLifetime(buffers) { () throws(AudioUnitError) in
            try converter.process(view, emit: collect)
            try converter.finish(emit: collect)
        }
        return result
    }

    /// Plays the scheduled regions from `sampleTime` (-1: the next render); the regions are
    /// then forgotten for the next schedule.
    /// - Thread: [control]
    public func start(atSampleTime sampleTime: Double) {
        let next = FilePlayerTimeline(channels: pending, startSampleTime: sampleTime)
        firstRenderTime.store(Double.nan.bitPattern, ordering: .releasing)
        framesPlayed.store(0, ordering: .releasing)
        timeline.publish([Unmanaged.passUnretained(next)])
        published = next
        pending = []
    }

    // MARK: - A file by name: the property parameter `file` (presets, `auhost`)

    /// The file a preset or `auhost` named, played whole from the first render.
    private var namedFile: String?

    /// `file`: an audio file (anything libsndfile reads) played whole from the first render
    /// after it is set, and again from the start after each initialization.
    /// - Thread: [control]
    public override var propertyParameters: [PropertyParameterInfo] {
        [PropertyParameterInfo(identifier: "file", name: "Audio File", valueType: .path)]
    }

    /// Reads the file named (an error names it when it cannot be read) and plays it.
    /// - Thread: [control]
    public override func setPropertyParameter(_ identifier: String, to value: PropertyParameterValue) throws(AudioUnitError) {
        guard identifier == "file" else { throw AudioUnitError(.invalidParameter, "\(name) has no property '\(identifier)'") }
        guard case .path(let path) = value else { throw AudioUnitError(.invalidPropertyValue, "\(name): 'file' takes a path, not \(value)") }
        try play(path)
        namedFile = path
    }

    /// - Thread: [control]
    public override func propertyParameterValue(_ identifier: String) -> PropertyParameterValue? {
        identifier == "file" ? namedFile.map(PropertyParameterValue.path) : nil
    }

    /// The named file is all the state (regions set through AudioToolbox are not saved).
    /// - Thread: [control]
    public override var parametersHoldCustomState: Bool { true }

    /// - Thread: [control]
    public override func saveCustomState() throws(AudioUnitError) -> Data? { namedFile.map { Data($0.utf8) } }

    /// - Thread: [control]
    public override func restoreCustomState(_ data: Data) throws(AudioUnitError) {
        try setPropertyParameter("file", to: .path(String(decoding: data, as: UTF8.self)))
    }

    /// The named file again at the output's rate, from the start.
    /// - Thread: [control]
    public override func allocateRenderResources() throws(AudioUnitError) {
        if let namedFile { try play(namedFile) }
    }

    /// Schedules all of `path` at the timeline's start and plays it from the next render.
    private func play(_ path: String) throws(AudioUnitError) {
        let reader = try AudioFileReader(path: path)
        pending = []
        try schedule(reader, start: 0, frames: nil, loops: 0, offset: 0)
        start(atSampleTime: -1)
    }

    /// Stops playing (AudioUnitReset): the timeline is unpublished.
    /// - Thread: [control]
    public override func resetState() {
        timeline.publish([])
        published = nil
        framesPlayed.store(0, ordering: .releasing)
    }

    /// Copies the timeline's frames under this cycle out, silence elsewhere.
    /// - Thread: [render]
    public override func process(_ context: ProcessContext) -> AudioUnitStatus {
        for output in context.outputs { output.clear() }
        timeline.read { items in
            guard let item = items.baseAddress?.pointee else { return }
            item._withUnsafeGuaranteedRef { timeline in
                var start = timeline.startSampleTime
                if start < 0 {
                    let first = Double(bitPattern: firstRenderTime.load(ordering: .acquiring))
                    if first.isNaN {
                        firstRenderTime.store(context.timestamp.sampleTime.bitPattern, ordering: .releasing)
                        start = context.timestamp.sampleTime
                    } else {
                        start = first
                    }
                }
                let offset = Int((context.timestamp.sampleTime - start).rounded())
                let output = context.outputs[0]
                for channel in 0..<min(output.channelCount, timeline.channels.count) {
                    timeline.channels[channel].withUnsafeBufferPointer { samples in
                        for frame in 0..<context.frameCount {
                            let position = offset + frame
                            if position >= 0 && position < samples.count { output.channelPointers[channel][frame] = samples[position] }
                        }
                    }
                }
                framesPlayed.store(max(0, offset + context.frameCount), ordering: .releasing)
            }
        }
        return 0
    }
}
