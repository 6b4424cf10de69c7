import AUCore
import AUEngine
import AUJACK
import Foundation

/// The levels a player reads while a chain runs live: JACK's input and output per channel
/// (peak and RMS in dBFS, clips since the last reset) and each node's output level, measured
/// on the render thread (``SignalLevelMeter``: the JACK cycle measures its ports, a
/// post-render notification each node's output bus) and read by `meters`, `status` and the
/// status line.
/// - Thread: [control] (the caller serialises: the meters have one reader).
public final class LiveLevels: @unchecked Sendable {
    /// What JACK captures and plays.
    public let input: SignalLevelMeter
    public let output: SignalLevelMeter
    /// Each node's output bus 0, in chain order.
    public let nodes: [(id: String, meter: SignalLevelMeter)]
    private var notifications: [(unit: AudioUnit, token: RenderNotifyToken)] = []

    /// Meters for `chain` playing through `io` (initialized): the I/O unit's own and a
    /// post-render notification on each node's unit.
    /// - Thread: [control]
    public convenience init(chain: ChainGraph, io: JACKIOUnit) {
        self.init(chain: chain, input: io.inputMeter, output: io.outputMeter)
    }

    /// Meters for `chain` whose input and output another driver measures.
    /// - Thread: [control]
    public init(chain: ChainGraph, input: SignalLevelMeter, output: SignalLevelMeter) {
        self.input = input
        self.output = output
        var nodes: [(id: String, meter: SignalLevelMeter)] = []
        for node in chain.nodes {
            let channels = node.unit.formats(.output).first?.channelsPerFrame ?? 0
            let meter = SignalLevelMeter(channels: channels)
            let reference = Unmanaged.passUnretained(meter)
            let callback = RenderCallback { flags, _, bus, buffers in
                if flags.contains(.postRender), bus == 0 { reference._withUnsafeGuaranteedRef { $0.measure(buffers) } }
                return 0
            }
            if channels > 0, let token = try? node.unit.addRenderNotify(callback, readsOnly: true) {
                notifications.append((node.unit, token))
                nodes.append((node.id, meter))
            }
        }
        self.nodes = nodes
    }

    /// Removes the nodes' notifications (when it returns, no render measures them).
    /// - Thread: [control]
    public func detach() {
        for (unit, token) in notifications { unit.removeRenderNotify(token) }
        notifications = []
    }

    /// `meters` words: `in_1.peak=-6.0 in_1.rms=-9.0 … out_1.peak=… clips_in=0
    /// clips_out=0 NODE.peak=… NODE.rms=…` (a node's loudest channel).
    /// - Thread: [control]
    public var meterWords: [String] {
        var words: [String] = []
        for (prefix, meter) in [("in", input), ("out", output)] {
            for (index, level) in meter.levels().enumerated() {
                words += ["\(prefix)_\(index + 1).peak=\(Self.format(level.peak))", "\(prefix)_\(index + 1).rms=\(Self.format(level.rms))"]
            }
        }
        words += ["clips_in=\(input.clips)", "clips_out=\(output.clips)"]
        for (id, meter) in nodes {
            let levels = meter.levels()
            words += ["\(id).peak=\(Self.format(levels.map(\.peak).max() ?? -.infinity))", "\(id).rms=\(Self.format(levels.map(\.rms).max() ?? -.infinity))"]
        }
        return words
    }

    /// `status` words: the loudest input and output channel's peak, and the clips.
    /// - Thread: [control]
    public var statusWords: String {
        let (inPeak, outPeak) = loudest
        return "in_peak=\(Self.format(inPeak)) out_peak=\(Self.format(outPeak)) clips_in=\(input.clips) clips_out=\(output.clips)"
    }

    /// The loudest input and output channel's peak (dBFS).
    /// - Thread: [control]
    public var loudest: (input: Double, output: Double) {
        (input.levels().map(\.peak).max() ?? -.infinity, output.levels().map(\.peak).max() ?? -.infinity)
    }

    /// Starts the clip counts again from zero.
    /// - Thread: [control]
    public func resetClips() {
        input.resetClips()
        output.resetClips()
    }

    /// `-6.0`, `-inf`.
    /// - Thread: [any]
    public static func format(_ decibels: Double) -> String { decibels.isFinite ? String(format: "%.1f", decibels) : "-inf" }
}
