import AUHost
import Foundation

/// What an `auhost_chain *` points at: the processor and the last output.
final class ChainHandle {
    let processor: ChainProcessor
    var output: [[Float]] = []

    init(_ processor: ChainProcessor) { self.processor = processor }

    /// Hands the last output back to the processor, for the next render to fill.
    func recycleOutput() {
        let previous = output
        output = []
        processor.recycle(previous)
    }

    static func from(_ pointer: OpaquePointer) -> ChainHandle {
        Unmanaged<ChainHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

/// `auhost_chain_new`: loads a chain preset; `preset` is a file's path when `file` is NULL,
/// else JSON text whose relative paths are relative to `file`'s folder. `sample_rate` is
/// the rate the chain runs at when the preset names none; `block_size` is `--block`;
/// `threads` is `--threads` (0: as many as the cores). NULL and `*error` on failure.
/// - Thread: [control]
@_cdecl("auhost_chain_new")
public func auhost_chain_new(
    _ preset: UnsafePointer<CChar>?, _ file: UnsafePointer<CChar>?, _ sampleRate: Double, _ blockSize: Int32, _ threads: Int32,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OpaquePointer? {
    auhost_chain_new_isolated(preset, file, sampleRate, blockSize, threads, nil, error)
}

/// `auhost_chain_new_isolated`: `auhost_chain_new` with the nodes that have no `"isolation"`
/// key run where `isolation` says (`none`, `together`, `per-unit`; NULL: none), their child
/// processes started from `BridgeIsolator.standardExecutable()` (beside this library).
/// - Thread: [control]
@_cdecl("auhost_chain_new_isolated")
public func auhost_chain_new_isolated(
    _ preset: UnsafePointer<CChar>?, _ file: UnsafePointer<CChar>?, _ sampleRate: Double, _ blockSize: Int32, _ threads: Int32,
    _ isolation: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OpaquePointer? {
    let mode = isolation.map { UnitIsolation(rawValue: String(cString: $0)) } ?? UnitIsolation.none
    guard let mode else {
        report("isolation \(String(cString: isolation!)): expected one of \(UnitIsolation.choices)", to: error)
        return nil
    }
    guard let preset else {
        report("preset: expected a preset file or its JSON text, got NULL", to: error)
        return nil
    }
    guard RenderSettings.blockSizes.contains(Int(blockSize)) else {
        report("block_size \(blockSize): expected a frame count in \(RenderSettings.blockSizes)", to: error)
        return nil
    }
    guard threads == 0 || (1...64).contains(threads) else {
        report("threads \(threads): expected 1...64, or 0 for as many as the cores", to: error)
        return nil
    }
    var settings = RenderSettings()
    settings.blockSize = Int(blockSize)
    settings.parallelism = (threads == 0 ? RenderParallelism.machineDefault : RenderParallelism(threads: Int(threads))).pipeliningOverEveryThread
    let text = String(cString: preset)
    let source: ChainProcessor.Source = file.map { .json(text, file: String(cString: $0)) } ?? .file(text)
    do throws(AudioUnitError) {
        // Every chain gets an isolator, so that a preset node's "isolation" key is honoured
        // as `auhost render` honours it; offline, a fault is the failed render's error.
        let isolator = BridgeIsolator { _ in }
        let processor = try ChainProcessor(source, registry: SharedRegistry.current, sampleRate: sampleRate, settings: settings, isolation: mode, isolator: isolator)
        return OpaquePointer(Unmanaged.passRetained(ChainHandle(processor)).toOpaque())
    } catch let failure {
        report(failure.message, to: error)
        return nil
    }
}

/// `auhost_chain_free`: disposes the chain and its units.
/// - Thread: [control]
@_cdecl("auhost_chain_free")
public func auhost_chain_free(_ chain: OpaquePointer?) {
    guard let chain else { return }
    Unmanaged<ChainHandle>.fromOpaque(UnsafeRawPointer(chain)).release()
}

/// `auhost_chain_set`: `NODE.PARAM=VALUE`, checked as `auhost render --set` checks it.
/// - Thread: [control]
@_cdecl("auhost_chain_set")
public func auhost_chain_set(
    _ chain: OpaquePointer, _ assignment: UnsafePointer<CChar>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    status(error) { () throws(AudioUnitError) in try ChainHandle.from(chain).processor.set(String(cString: assignment)) }
}

/// `auhost_chain_set_tail`: the tail rendered after the input (`--tail`): seconds, or a
/// negative number for auto (the default).
/// - Thread: [control]
@_cdecl("auhost_chain_set_tail")
public func auhost_chain_set_tail(
    _ chain: OpaquePointer, _ seconds: Double, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    status(error) { () throws(AudioUnitError) in
        let tail: TailLength
        if seconds < 0 {
            tail = .auto
        } else {
            guard let given = TailLength(argument: String(seconds)) else {
                throw AudioUnitError(.invalidPropertyValue, "tail \(seconds): expected a number of seconds in 0...\(Int(TailLength.maximumSeconds)), or auto")
            }
            tail = given
        }
        ChainHandle.from(chain).processor.settings.tail = tail
    }
}

/// `auhost_chain_info`: at `sample_rate` (audio's rate), the rate the chain runs at, its
/// input and output channels, its latency in frames and its TailTime in seconds.
/// - Thread: [control]
@_cdecl("auhost_chain_info")
public func auhost_chain_info(
    _ chain: OpaquePointer, _ sampleRate: Double, _ chainRate: UnsafeMutablePointer<Double>, _ inputs: UnsafeMutablePointer<Int32>,
    _ outputs: UnsafeMutablePointer<Int32>, _ latency: UnsafeMutablePointer<Int64>, _ tail: UnsafeMutablePointer<Double>,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    status(error) { () throws(AudioUnitError) in
        let processor = ChainHandle.from(chain).processor
        let rate = processor.chainRate(for: sampleRate)
        let channels = try processor.channels(sampleRate: rate)
        chainRate.pointee = rate
        inputs.pointee = Int32(channels.input)
        outputs.pointee = Int32(channels.output)
        latency.pointee = Int64(try processor.latencyFrames(sampleRate: rate))
        tail.pointee = try processor.tailSeconds(sampleRate: rate)
    }
}

/// `auhost_chain_output_shape`: the output a render of `frames` frames at `sample_rate`
/// gives: the chain's output channels and its fewest frames (exactly so many with a tail of
/// fixed length; with auto, a tail quiet from its start).
/// - Thread: [control]
@_cdecl("auhost_chain_output_shape")
public func auhost_chain_output_shape(
    _ chain: OpaquePointer, _ frames: Int64, _ sampleRate: Double, _ outputs: UnsafeMutablePointer<Int32>,
    _ outputFrames: UnsafeMutablePointer<Int64>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    status(error) { () throws(AudioUnitError) in
        guard frames >= 0 else { throw AudioUnitError(.invalidPropertyValue, "frames \(frames): expected 0 or more") }
        let processor = ChainHandle.from(chain).processor
        outputs.pointee = Int32(try processor.channels(sampleRate: processor.chainRate(for: sampleRate)).output)
        outputFrames.pointee = Int64(try processor.shortestOutputFrames(inputFrames: Int(frames), sampleRate: sampleRate))
    }
}

/// `auhost_chain_process`: renders `frames` frames of `channels` planar channels at
/// `sample_rate` (or, with `smf`, the Standard MIDI File of `smf_size` bytes over silence)
/// as `auhost render` renders a file: a clean start, latency compensated, the tail rendered.
/// The output stays in the chain for `auhost_chain_output_frames` and `auhost_chain_copy_output`.
/// - Thread: [control], playing the render thread.
@_cdecl("auhost_chain_process")
public func auhost_chain_process(
    _ chain: OpaquePointer, _ input: UnsafePointer<UnsafePointer<Float>?>?, _ channels: Int32, _ frames: Int64, _ sampleRate: Double,
    _ smf: UnsafePointer<UInt8>?, _ smfSize: Int, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    let handle = ChainHandle.from(chain)
    handle.recycleOutput()
    return withInput(input, channels: channels, frames: frames, required: smf == nil, error) { audio throws(AudioUnitError) in
        let song = smf.map { Array(UnsafeBufferPointer(start: $0, count: smfSize)) }
        handle.output = try handle.processor.render(audio, sampleRate: sampleRate, song: song) ?? []
    }
}

/// `auhost_chain_process_into`: renders audio as `auhost_chain_process` does, into `output`
/// (`output_channels`, the chain's output channels, of `output_frames` each) when the output
/// is exactly that long (1); else the output stays in the chain (0), as after
/// `auhost_chain_process`. -1 and `*error` on failure.
/// - Thread: [control], playing the render thread.
@_cdecl("auhost_chain_process_into")
public func auhost_chain_process_into(
    _ chain: OpaquePointer, _ input: UnsafePointer<UnsafePointer<Float>?>?, _ channels: Int32, _ frames: Int64, _ sampleRate: Double,
    _ output: UnsafePointer<UnsafeMutablePointer<Float>?>?, _ outputChannels: Int32, _ outputFrames: Int64,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    let handle = ChainHandle.from(chain)
    handle.recycleOutput()
    var placed = false
    let status = withInput(input, channels: channels, frames: frames, required: true, error) { audio throws(AudioUnitError) in
        try withOutput(output, channels: outputChannels, frames: outputFrames) { destination throws(AudioUnitError) in
            let kept = try handle.processor.render(audio, sampleRate: sampleRate, into: destination)
            handle.output = kept ?? []
            placed = kept == nil
        }
    }
    return status < 0 ? status : placed ? 1 : 0
}

/// `auhost_chain_stream`: continues the chain's stream with `frames` frames of `channels`
/// planar channels at `sample_rate`, written into `output` (`output_channels`, the chain's
/// output channels, of `frames` each): as many frames out as in, the latency not compensated,
/// no tail.
/// - Thread: [control], playing the render thread.
@_cdecl("auhost_chain_stream")
public func auhost_chain_stream(
    _ chain: OpaquePointer, _ input: UnsafePointer<UnsafePointer<Float>?>?, _ channels: Int32, _ frames: Int64, _ sampleRate: Double,
    _ output: UnsafePointer<UnsafeMutablePointer<Float>?>?, _ outputChannels: Int32, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    withInput(input, channels: channels, frames: frames, required: true, error) { audio throws(AudioUnitError) in
        guard let audio else { throw AudioUnitError(.invalidPropertyValue, "audio: expected 1...64 channel pointers") }
        try withOutput(output, channels: outputChannels, frames: frames) { destination throws(AudioUnitError) in
            try ChainHandle.from(chain).processor.stream(audio, sampleRate: sampleRate, into: destination)
        }
    }
}

/// The caller's output channels as ``AudioBuffers`` of `frames` frames for `body`; a bad
/// count or a NULL pointer is the caller's error.
private func withOutput(
    _ output: UnsafePointer<UnsafeMutablePointer<Float>?>?, channels: Int32, frames: Int64, _ body: (AudioBuffers) throws(AudioUnitError) -> Void
) throws(AudioUnitError) {
    guard let output, channels > 0, channels <= 64, frames >= 0 else {
        throw AudioUnitError(.invalidPropertyValue, "output: \(channels) channels of \(frames) frames; expected 1...64 channel pointers and a frame count of 0 or more")
    }
    let table = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: Int(channels))
    defer { table.deallocate() }
    for channel in 0..<Int(channels) {
        guard let pointer = output[channel] else { throw AudioUnitError(.invalidPropertyValue, "output: a NULL channel pointer") }
        table[channel] = pointer
    }
    try body(AudioBuffers(channelPointers: table, frameCount: Int(frames)))
}

/// The caller's input as ``AudioBuffers`` (nil for no channels, allowed unless `required`)
/// for `body`; a bad count or a NULL pointer is the caller's error.
private func withInput(
    _ input: UnsafePointer<UnsafePointer<Float>?>?, channels: Int32, frames: Int64, required: Bool,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ body: (AudioBuffers?) throws(AudioUnitError) -> Void
) -> Int32 {
    status(error) { () throws(AudioUnitError) in
        guard channels >= 0, channels <= 64, frames >= 0, !(required && channels == 0) else {
            throw AudioUnitError(.invalidPropertyValue, "audio: \(channels) channels of \(frames) frames; expected 1...64 channels and a frame count of 0 or more")
        }
        let table = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(1, Int(channels)))
        defer { table.deallocate() }
        guard channels > 0 else { return try body(nil) }
        guard let input, let audio = planar(input, channels: Int(channels), frames: Int(frames), table: table) else {
            throw AudioUnitError(.invalidPropertyValue, "audio: a NULL channel pointer; expected \(channels) channels")
        }
        try body(audio)
    }
}

/// `auhost_chain_output_channels`: channels of the last output.
/// - Thread: [control]
@_cdecl("auhost_chain_output_channels")
public func auhost_chain_output_channels(_ chain: OpaquePointer) -> Int32 { Int32(ChainHandle.from(chain).output.count) }

/// `auhost_chain_output_frames`: frames of the last output.
/// - Thread: [control]
@_cdecl("auhost_chain_output_frames")
public func auhost_chain_output_frames(_ chain: OpaquePointer) -> Int64 { Int64(ChainHandle.from(chain).output.first?.count ?? 0) }

/// `auhost_chain_copy_output`: copies the last output into the caller's planar channels
/// (as many as `auhost_chain_output_channels`, each of `auhost_chain_output_frames`).
/// - Thread: [control]
@_cdecl("auhost_chain_copy_output")
public func auhost_chain_copy_output(_ chain: OpaquePointer, _ destination: UnsafePointer<UnsafeMutablePointer<Float>?>) {
    for (channel, samples) in ChainHandle.from(chain).output.enumerated() {
        guard let target = destination[channel] else { continue }
        samples.withUnsafeBufferPointer { target.update(from: $0.baseAddress!, count: $0.count) }
    }
}

/// `auhost_chain_warnings_json`: the last render's warnings (faults, clipping, a tail cut at
/// its cap), the lines `auhost render` prints, as a JSON array of strings.
/// - Thread: [control]
@_cdecl("auhost_chain_warnings_json")
public func auhost_chain_warnings_json(_ chain: OpaquePointer) -> UnsafeMutablePointer<CChar>? {
    let warnings = ChainHandle.from(chain).processor.lastReport?.warnings ?? []
    let data = (try? JSONSerialization.data(withJSONObject: warnings)) ?? Data("[]".utf8)
    return cString(String(decoding: data, as: UTF8.self))
}

/// `auhost_chain_nonfinite_input`: how many samples of the last render's input were NaN or
/// infinite (rendered as silence).
/// - Thread: [control]
@_cdecl("auhost_chain_nonfinite_input")
public func auhost_chain_nonfinite_input(_ chain: OpaquePointer) -> Int64 {
    Int64(ChainHandle.from(chain).processor.lastReport?.nonFiniteInputSamples ?? 0)
}

/// `auhost_chain_levels`: the last render's sample peak and RMS over its output channels, in
/// dBFS (-infinity for silence, or before a render).
/// - Thread: [control]
@_cdecl("auhost_chain_levels")
public func auhost_chain_levels(_ chain: OpaquePointer, _ peak: UnsafeMutablePointer<Double>?, _ rms: UnsafeMutablePointer<Double>?) {
    let levels = ChainHandle.from(chain).processor.lastReport?.levels
    peak?.pointee = levels?.samplePeakDBFS ?? -.infinity
    rms?.pointee = levels?.rmsDBFS ?? -.infinity
}

/// `auhost_chain_parameters_json`: every input parameter as `{"name": "node.param", "value",
/// "min", "max", "default", "unit", "label"}`.
/// - Thread: [control]
@_cdecl("auhost_chain_parameters_json")
public func auhost_chain_parameters_json(_ chain: OpaquePointer) -> UnsafeMutablePointer<CChar>? {
    let entries: [[String: Any]] = ChainHandle.from(chain).processor.parameters.map { entry in
        [
            "name": entry.target, "value": Double(entry.value), "min": Double(entry.info.minValue), "max": Double(entry.info.maxValue),
            "default": Double(entry.info.defaultValue), "unit": entry.info.unit.symbol, "label": entry.info.name,
        ]
    }
    let data = (try? JSONSerialization.data(withJSONObject: entries)) ?? Data("[]".utf8)
    return cString(String(decoding: data, as: UTF8.self))
}

/// `auhost_chain_preset_json`: the chain as it is now, as preset JSON (what `save` writes).
/// - Thread: [control]
@_cdecl("auhost_chain_preset_json")
public func auhost_chain_preset_json(_ chain: OpaquePointer, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafeMutablePointer<CChar>? {
    do throws(AudioUnitError) {
        return cString(try ChainHandle.from(chain).processor.presetJSON())
    } catch let failure {
        report(failure.message, to: error)
        return nil
    }
}
