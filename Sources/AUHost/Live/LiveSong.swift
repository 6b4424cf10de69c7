import AUCore
import AUJACK
import AUMIDI
import AUMusicPlayer

/// A MIDI song playing live in a chain (`auhost play`): its ``MusicPlayer`` and how it keeps
/// time with the JACK server. `internal`: the player is its own clock. `follow`: JACK
/// transport moves it (any client starts, stops and locates it; ``play()``, ``stop()`` and
/// ``seek(toBeats:)`` move JACK transport too). `drive`: as `follow`, and the player is the
/// timebase master: every client reads the song's bar, beat, tick and tempo from JACK.
/// `midiClock`: MIDI clock at `midi_in` starts, stops and locates it and sets its tempo
/// (``play()``, ``stop()`` and ``seek(toBeats:)`` are then errors: the clock's source moves it).
/// - Thread: [control]
public final class LiveSong: @unchecked Sendable {
    /// How the song keeps time with the server.
    /// - Thread: [any] (a plain value).
    public enum Sync: String, Sendable, CaseIterable {
        case `internal`
        case follow
        case drive
        case midiClock = "midi-clock"

        /// The player's sync source for this mode.
        var source: MusicPlayerSyncSource {
            switch self {
            case .internal: .internal
            case .follow, .drive: .hostTransport
            case .midiClock: .midiClock
            }
        }
    }

    /// What to play: a song read from `file`, how it keeps time, whether it sends MIDI clock.
    /// - Thread: [any] (a plain value).
    public struct Request: Sendable {
        public var sequence: MusicSequence
        public var file: String
        public var sync: Sync
        public var sendsMIDIClock: Bool

        /// - Thread: [any]
        public init(sequence: MusicSequence, file: String, sync: Sync = .internal, sendsMIDIClock: Bool = false) {
            self.sequence = sequence
            self.file = file
            self.sync = sync
            self.sendsMIDIClock = sendsMIDIClock
        }
    }

    public let player: MusicPlayer
    public let sequence: MusicSequence
    /// The MIDI file as the user named it.
    public let file: String
    public let sync: Sync
    private let client: JACKClient
    private let sampleRate: Double

    /// A song in `chain` (not yet playing) that keeps time with `client` by `sync`, sending
    /// MIDI clock to the graph's MIDI output when `sendsMIDIClock`. The chain's graph is not
    /// yet initialized for JACK (its driver then opens `midi_out` for the clock).
    /// - Thread: [control]
    init(_ request: Request, chain: ChainGraph, client: JACKClient) throws(AudioUnitError) {
        player = try chain.makePlayer(for: request.sequence, from: request.file, sendsMIDIClock: request.sendsMIDIClock)
        try player.setSyncSource(request.sync.source)
        sequence = request.sequence
        file = request.file
        sync = request.sync
        self.client = client
        sampleRate = chain.sampleRate
    }

    /// Makes the player JACK's timebase master (`drive`); gives up at ``dispose()``.
    /// - Thread: [control]
    func takeTimebase() throws(JACKError) {
        guard sync == .drive else { return }
        try client.becomeTimebaseMaster(player.timeline)
    }

    /// Plays from where the song is.
    /// - Thread: [control]
    public func play() throws(AudioUnitError) {
        switch sync {
        case .internal: try player.start()
        case .midiClock: throw Self.clockMovesIt
        case .follow, .drive:
            client.locateTransport(toFrame: frame(atBeats: player.time))
            client.startTransport()
        }
    }

    /// Stops where the song is, ending the notes that sound.
    /// - Thread: [control]
    public func stop() throws(AudioUnitError) {
        switch sync {
        case .internal: player.stop()
        case .midiClock: throw Self.clockMovesIt
        case .follow, .drive: client.stopTransport()
        }
    }

    /// Moves to `beats` (playing on from there when it plays).
    /// - Thread: [control]
    public func seek(toBeats beats: MusicTimeStamp) throws(AudioUnitError) {
        switch sync {
        case .internal: try player.setTime(beats)
        case .midiClock: throw Self.clockMovesIt
        case .follow, .drive: client.locateTransport(toFrame: frame(atBeats: beats))
        }
    }

    /// What play, stop and seek say when MIDI clock moves the song.
    private static let clockMovesIt = AudioUnitError(
        .cannotDoInCurrentContext, "the song follows MIDI clock at midi_in: the clock's source starts, stops and moves it")

    /// The song position of `text`, `BAR[:BEAT[:TICK]]` (bars and beats from 1, 480 ticks
    /// a beat), in beats; the error names what is expected.
    /// - Thread: [control]
    public func beats(at text: String) throws(AudioUnitError) -> MusicTimeStamp {
        try Self.beats(at: text, in: sequence)
    }

    /// The position `text` in `sequence`, in beats: from its start to its end, both
    /// included (a position past the end would leave the song where nothing plays, and a
    /// loop that never wraps).
    /// - Thread: [control]
    static func beats(at text: String, in sequence: MusicSequence) throws(AudioUnitError) -> MusicTimeStamp {
        let end = sequence.barBeatTime(forBeats: sequence.length, subbeatDivisor: 480)
        guard let position = CABarBeatTime(parsing: text) else {
            throw AudioUnitError(.invalidPropertyValue, "'\(text)' is not a position; expected BAR[:BEAT[:TICK]] such as 5, 5:3 or 5:3:240 (bars and beats from 1, 480 ticks a beat)")
        }
        let beats = sequence.beats(for: position)
        guard beats.isFinite, beats >= 0, beats <= sequence.length else {
            throw AudioUnitError(.invalidPropertyValue, "'\(text)' is past the song's end; expected a position from 1 to \(end)")
        }
        return beats
    }

    /// Whether a song that does not loop has played to its end.
    /// - Thread: [control]
    public var hasEnded: Bool { sync == .internal && player.loopRange == nil && player.time >= sequence.length }

    /// The song's part of a `status` reply: `song=playing position=BAR:BEAT:TICK beats=… bpm=… sync=…`.
    /// - Thread: [control]
    public var statusWords: String {
        let beats = player.time
        let position = sequence.barBeatTime(forBeats: beats, subbeatDivisor: 480)
        let bpm = sequence.tempoMap.bpm(atBeats: beats) * player.playRateScalar
        return "song=\(player.isPlaying ? "playing" : "stopped") position=\(position) beats=\(formatNumber(Float(beats))) bpm=\(formatNumber(Float(bpm))) sync=\(sync.rawValue)"
    }

    /// Stops the song and gives up the timebase.
    /// - Thread: [control]
    func dispose() {
        player.stop()
        if sync == .drive { client.releaseTimebase() }
    }

    /// The transport frame of `beats`: its seconds times the sample rate.
    private func frame(atBeats beats: MusicTimeStamp) -> Int64 {
        sequence.tempoMap.sampleFrame(forBeats: beats, sampleRate: sampleRate)
    }
}
