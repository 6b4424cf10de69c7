import AUFiles
import Foundation

/// What rendering one file produced: its length, the chain's rate and latency, the tail
/// kept, and the levels written.
/// - Thread: [any] (a plain value).
public struct RenderReport: Sendable {
    public let job: RenderJob
    /// The output file's rate, channels and frames.
    public let sampleRate: Double
    public let channels: Int
    public let frames: Int
    /// The rate and channels the chain ran at.
    public let chainSampleRate: Double
    public let chainChannels: Int
    /// The chain's latency, compensated (frames at the chain's rate).
    public let latencyFrames: Int
    /// Seconds of tail after the input's end.
    public let tailSeconds: Double
    /// `--tail auto` stopped at its cap with the output still above -90 dBFS.
    public let tailEndedAtCap: Bool
    public let levels: AudioLevels
    /// An audio file went through a chain that takes no audio input and starts with an
    /// instrument: the instrument got no notes, the file only set the length.
    public var instrumentGotNoMIDI = false
    /// MIDI events dropped because more than an instrument takes in one cycle
    /// (``AudioUnit/eventCapacity``) happened in it.
    public var droppedMIDIEvents = 0
    /// Faults of the chain (a node muted for NaN or infinity, a failed render) and NaN or
    /// infinity in the input, each one line naming the node or file and the frame.
    public var faults: [String] = []
    /// How many input samples were NaN or infinite (rendered as silence).
    public var nonFiniteInputSamples = 0
    /// Why a silent output (below -120 dBFS) from a non-silent input or a song with notes
    /// likely is silent, nil when the output is not or the input was silent too.
    public var silentOutputCause: String?
    /// `in.wav -> out.mid: 24 MIDI events` when `--midi-out` wrote a file.
    public var midiOutputSummary: String?
    /// The seconds the file took, from building its graph to its output in place.
    public var renderSeconds = 0.0

    /// - Thread: [any]
    public var duration: Double { sampleRate > 0 ? Double(frames) / sampleRate : 0 }

    /// `in.wav -> out.flac: 3.250 s, 44100 Hz, 2 ch, flac 24-bit (chain 48000 Hz, 2 ch, latency 64, tail 0.250 s); peak ...`
    /// - Thread: [any]
    public var summary: String {
        var chain = "chain \(Self.rate(chainSampleRate)) Hz, \(chainChannels) ch"
        if latencyFrames > 0 { chain += ", latency \(latencyFrames) frames compensated" }
        chain += ", tail \(Self.seconds(tailSeconds)) s"
        return "\(job.input) -> \(job.output): \(Self.seconds(duration)) s, \(Self.rate(sampleRate)) Hz, \(channels) ch, \(job.encoding) (\(chain)); \(levels)"
    }

    /// Warnings to print after the summary: the chain's faults and non-finite input,
    /// clipping, an instrument that got no notes, a tail cut at its cap.
    /// - Thread: [any]
    public var warnings: [String] {
        var lines = faults
        if let clipping = levels.clippingWarning { lines.append("\(job.output): \(clipping)") }
        if instrumentGotNoMIDI {
            lines.append("\(job.input): the chain takes no audio input and its instrument got no MIDI, so this file only set the length; give a Standard MIDI File to play it")
        }
        if droppedMIDIEvents > 0 {
            lines.append("\(job.input): \(droppedMIDIEvents) MIDI event\(droppedMIDIEvents == 1 ? " was" : "s were") dropped: more than \(AudioUnit.eventCapacity) happened within one render cycle of an instrument; expected fewer at once (or a smaller --block)")
        }
        if let silentOutputCause {
            lines.append("\(job.output): silent (peak below \(Int(SilentRenderCheck.thresholdDBFS)) dBFS) though \(job.input) was not: \(silentOutputCause)")
        }
        if tailEndedAtCap {
            lines.append("\(job.output): the tail was still above \(Int(TailLength.quietThresholdDBFS)) dBFS when it was cut at \(Self.seconds(tailSeconds)) s; pass --tail SECONDS for a longer one")
        }
        return lines
    }

    static func rate(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// A length for people: `2:05.5` (minutes), `1:02:05` (hours), `16 days 4:20:00`.
    static func clock(_ value: Double) -> String {
        let whole = Int(min(value, 1e15))
        let (days, hours, minutes) = (whole / 86_400, whole / 3600 % 24, whole / 60 % 60)
        let secondsText = String(format: "%04.1f", value - Double(whole - whole % 60))
        if days > 0 { return String(format: "%d day%@ %d:%02d:%02d", days, days == 1 ? "" : "s", hours, minutes, whole % 60) }
        if hours > 0 { return String(format: "%d:%02d:%02d", hours, minutes, whole % 60) }
        return "\(minutes):\(secondsText)"
    }
}
