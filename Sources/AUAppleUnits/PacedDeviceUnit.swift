import AUCore
import AUEngine
import AUFiles
import Foundation
import Synchronization

/// The output device when there is no JACK (`AUHOST_DEVICE=file:PATH.wav` or `null`): an
/// output unit with a thread of its own that renders, period by period and paced by the
/// clock, what the unit would play (its graph when it is a graph's output node, else its
/// own input: a render callback or a connection), and writes it to a WAV file or discards
/// it. The file appears whole when the unit stops (AtomicFile).
/// - Thread: [control]; its device thread renders.
public final class PacedDeviceUnit: GenericOutputUnit, AudioOutputUnit, @unchecked Sendable {
    /// Frames the device renders at a time.
    public static let periodFrames = 512
    /// The device's rate until a format is set.
    public static let defaultSampleRate = 44_100.0
    /// The WAV file it writes; nil: it discards.
    public let path: String?
    /// The graph this unit is the output node of (set by AUGraphInitialize).
    public weak var graph: AudioGraph?
    private let running = Atomic<Bool>(false)
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private var writer: AudioFileWriter?
    private var sampleTime = 0.0
    /// What went wrong writing, reported by stop.
    public private(set) var writeError: AudioUnitError?

    /// A device output under `description` named `name` that writes to `path` (nil: discards).
    /// - Thread: [control]
    public init(description: ComponentDescription, name: String, path: String?) {
        self.path = path
        super.init(description: description, name: name, application: "device", sampleRate: Self.defaultSampleRate)
    }

    /// Whether the device thread runs.
    /// - Thread: [any]
    public var isRunning: Bool { running.load(ordering: .relaxed) }

    /// Starts the device thread (`AudioOutputUnitStart`); the file, if any, is started anew.
    /// - Thread: [control]
    public func start() throws(AudioUnitError) {
        guard state == .initialized else { throw AudioUnitError(.uninitialized, "\(name): initialize the unit before starting it") }
        guard !running.load(ordering: .relaxed) else { return }
        let format = try busConfiguration(scope: .input, element: 0).format
        if let path, writer == nil {
            writer = try AudioFileWriter(
                path: path, encoding: try AudioFileEncoding(format: .wav, bitDepth: .float32), sampleRate: format.sampleRate,
                channels: format.channelsPerFrame, overwrite: true, maxFramesPerWrite: Self.periodFrames)
        }
        running.store(true, ordering: .relaxed)
        let buffers = OwnedAudioBuffers(channels: format.channelsPerFrame, capacity: Self.periodFrames)
        let thread = Thread { [unowned self] in self.run(buffers: buffers, sampleRate: format.sampleRate) }
        thread.name = "AudioToolbox device"
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    /// Stops the device thread and finishes the file (`AudioOutputUnitStop`).
    /// - Thread: [control]
    public func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
        thread = nil
        do {
            try writer?.finish()
        } catch {
            writeError = error
        }
        writer = nil
    }

    /// - Thread: [control]
    override public func deallocateRenderResources() { stop() }

    /// The device thread: a period rendered, written, then a sleep until its deadline (none
    /// while behind the clock).
    private func run(buffers: OwnedAudioBuffers, sampleRate: Double) {
        let period = Self.periodFrames
        let periodNanoseconds = UInt64(Double(period) / sampleRate * 1e9)
        var deadline = DispatchTime.now().uptimeNanoseconds
        let view = buffers.buffers(frameCount: period)
        while running.load(ordering: .relaxed) {
            let timestamp = RenderTimestamp(sampleTime: sampleTime, hostTime: DispatchTime.now().uptimeNanoseconds, flags: [.sampleTimeValid])
            let status: AudioUnitStatus = RenderThread.run {
                if let graph { return graph.render(frameCount: period, timestamp: timestamp, output: view) }
                var flags = RenderFlags()
                return self.render(flags: &flags, timestamp: timestamp, outputBus: 0, buffers: view)
            }
            if status != 0 { view.clear() }
            sampleTime += Double(period)
            if let writer, writeError == nil {
                do { try writer.write(view) } catch { writeError = error }
            }
            deadline += periodNanoseconds
            let now = DispatchTime.now().uptimeNanoseconds
            // Behind (the machine stalled the thread): the next periods render at once until the
            // clock is caught up, so the file holds as many frames as time passed and a
            // program's timed changes land where its clock put them.
            if deadline > now { usleep(UInt32((deadline - now) / 1000)) }
        }
        finished.signal()
    }
}
