import AUHost
import Foundation

/// Everything `auhost midi info` tells about a Standard MIDI File. Tracks, channels and
/// programs count from 1 (track 1 is the file's first track after the tempo track, channel 1
/// is MIDI channel 0, program 1 is General MIDI's Acoustic Grand Piano); bars count from 1.
struct MIDIFileSummary: Encodable {
    struct Track: Encodable {
        var number: Int
        var name: String?
        var instrument: String?
        var channels: [Int]
        /// The programs each channel is given, in the order they come.
        var programs: [String: [Int]]
        var notes: Int
        var channelMessages: Int
        var metaEvents: Int
        var sysex: Int
        var lengthBeats: Double
    }
    struct Tempo: Encodable {
        var beat: Double
        var position: String
        var seconds: Double
        var bpm: Double
    }
    struct Meter: Encodable {
        var beat: Double
        var bar: Int
        var signature: String
    }

    var format: Int
    var division: String
    var tracks: [Track]
    var tempos: [Tempo]
    var timeSignatures: [Meter]
    var lengthBeats: Double
    var lengthBars: Double
    var lengthSeconds: Double
    /// Tempo events that are not finite and positive (0 microseconds per quarter note) and
    /// time signatures with a numerator of 0 or a denominator finer than 1/64: the maps
    /// ignore them, and so does the listing.
    var ignoredTempos = 0
    var ignoredTimeSignatures = 0

    /// The JSON's keys (docs/MIDI.md): the ignored events are only counted in the text.
    private enum CodingKeys: String, CodingKey {
        case format, division, tracks, tempos, timeSignatures, lengthBeats, lengthBars, lengthSeconds
    }

    init(_ sequence: MusicSequence, format: Int) {
        self.format = format
        switch sequence.division {
        case .ticksPerQuarterNote(let ticks): division = "\(ticks) ticks per quarter note"
        case .smpte(let frames, let ticks): division = "SMPTE \(frames == 29 ? "29.97 drop-frame" : "\(frames)") frames per second, \(ticks) ticks per frame"
        }
        let signatures = sequence.timeSignatureMap
        tracks = sequence.tracks.enumerated().map { index, track in Self.track(track, number: index + 1) }
        let tempoMap = sequence.tempoMap
        var tempos: [Tempo] = []
        var meters: [Meter] = []
        // The maps are built once, above: each look-up is a binary search, not a new map
        // per event (20,000 time signatures took 18 s).
        for event in sequence.tempoTrack.events {
            switch event.event {
            case .tempo(let tempo):
                guard tempo.bpm.isFinite, tempo.bpm > 0 else {
                    ignoredTempos += 1
                    continue
                }
                let position = signatures.barBeatTime(forBeats: event.timeStamp, subbeatDivisor: 480)
                tempos.append(Tempo(beat: event.timeStamp, position: position.description, seconds: tempoMap.seconds(forBeats: event.timeStamp), bpm: tempo.bpm))
            case .meta(.timeSignature(let signature)):
                guard signature.numerator > 0, signature.denominatorPower <= 6 else {
                    ignoredTimeSignatures += 1
                    continue
                }
                let position = signatures.barBeatTime(forBeats: event.timeStamp, subbeatDivisor: 480)
                meters.append(Meter(beat: event.timeStamp, bar: position.bar, signature: "\(signature.numerator)/\(signature.denominator)"))
            default: break
            }
        }
        if tempos.first?.beat != 0 { tempos.insert(Tempo(beat: 0, position: "1:1:0", seconds: 0, bpm: MusicTempoMap.defaultBPM), at: 0) }
        if meters.first?.beat != 0 { meters.insert(Meter(beat: 0, bar: 1, signature: "4/4"), at: 0) }
        self.tempos = tempos
        timeSignatures = meters
        lengthBeats = sequence.tracks.map(\.length).max() ?? 0
        lengthSeconds = tempoMap.seconds(forBeats: lengthBeats)
        let end = signatures.barBeatTime(forBeats: lengthBeats, subbeatDivisor: 480)
        let beatsPerBar = Double(signatures.timeSignature(atBeats: lengthBeats).numerator)
        lengthBars = Double(end.bar - 1) + (Double(end.beat - 1) + Double(end.subbeat) / 480) / beatsPerBar
    }

    private static func track(_ track: MusicTrack, number: Int) -> Track {
        var summary = Track(
            number: number, channels: [], programs: [:], notes: 0, channelMessages: 0, metaEvents: 0, sysex: 0, lengthBeats: track.length)
        var channels = Set<Int>()
        for event in track.events {
            switch event.event {
            case .note(let note):
                summary.notes += 1
                channels.insert(Int(note.channel) + 1)
            case .channel(let message):
                summary.channelMessages += 1
                channels.insert(Int(message.channel) + 1)
                if message.status & 0xF0 == 0xC0 { summary.programs["\(message.channel + 1)", default: []].append(Int(message.data1) + 1) }
            case .meta(let meta):
                summary.metaEvents += 1
                if case .text(.trackName, _) = meta, summary.name == nil { summary.name = meta.string }
                if case .text(.instrumentName, _) = meta, summary.instrument == nil { summary.instrument = meta.string }
            case .sysex: summary.sysex += 1
            case .tempo, .user, .parameter, .auPreset: break
            }
        }
        summary.channels = channels.sorted()
        return summary
    }

    /// The text listing.
    func text(file: String) -> String {
        var lines = ["\(file): format \(format), \(division)"]
        let bars = String(format: "%.2f", lengthBars)
        lines.append("  length:  \(Self.number(lengthBeats)) beats, \(bars) bars, \(String(format: "%.3f", lengthSeconds)) s")
        lines.append("  tempo:   " + tempos.map { "\(Self.number($0.bpm)) BPM at \($0.position) (\(String(format: "%.3f", $0.seconds)) s)" }.joined(separator: ", ")
            + (ignoredTempos == 0 ? "" : "; \(ignoredTempos) tempo event\(ignoredTempos == 1 ? "" : "s") of 0 microseconds per quarter note ignored"))
        lines.append("  meter:   " + timeSignatures.map { "\($0.signature) from bar \($0.bar)" }.joined(separator: ", ")
            + (ignoredTimeSignatures == 0 ? "" : "; \(ignoredTimeSignatures) invalid time signature\(ignoredTimeSignatures == 1 ? "" : "s") (numerator 0, or finer than 1/64) ignored"))
        lines.append("  tracks:  \(tracks.count)")
        for track in tracks {
            var line = "    \(track.number): \(track.name.map { "'\(Self.escaped($0))'" } ?? "(no name)")"
            if let instrument = track.instrument { line += " instrument '\(Self.escaped(instrument))'" }
            line += track.channels.isEmpty ? ", no channel" : ", channel\(track.channels.count == 1 ? "" : "s") " + track.channels.map(String.init).joined(separator: ",")
            let programs = track.programs.keys.sorted { Int($0) ?? 0 < Int($1) ?? 0 }
                .map { "\($0): \(track.programs[$0, default: []].map(String.init).joined(separator: ","))" }
            if !programs.isEmpty { line += ", programs " + programs.joined(separator: "; ") }
            line += ", \(track.notes) notes, \(track.channelMessages) other channel messages, \(track.metaEvents) meta, \(track.sysex) sysex"
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` safe to print on a terminal: control characters (escape sequences, newlines,
    /// C1 controls) and the backslash are written as `\n`, `\e`, `\x7f`, `\u{9b}`, `\\`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: result += "\\\\"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x1B: result += "\\e"
            case 0..<0x20, 0x7F: result += "\\x" + String(format: "%02x", scalar.value)
            case 0x80..<0xA0: result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// At most three decimals, without trailing zeros: `4`, `4.5`, `13.875`.
    private static func number(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
