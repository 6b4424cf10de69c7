import AUHost
import Foundation

/// `auhost play`: a Standard MIDI File played live on JACK through a chain, by a MusicPlayer.
/// - Thread: [control]
enum PlayCommand: Command {
    static let name = "play"
    static let summary = "play a MIDI file live on JACK through a chain (or to midi_out)"
    /// Without --preset: the sampler as a General MIDI module on the system's GM bank, else
    /// (no bank installed) the package's Synth on every track.
    static var defaultChain: (unit: String, sets: [String]) {
        SamplerUnit.defaultGeneralMIDIBank != nil ? ("aumu:samp:AUHs", ["soundbank=gm"]) : ("aumu:synt:AUHs", [])
    }
    static let help = """
        usage: auhost play SONG.mid [--preset (PRESET.json | UNIT)] [--loop] [--from BAR[:BEAT[:TICK]]]
                           [--transport internal|follow|drive|midi-clock] [--midi-clock-out] [--name N]
                           [--server S] [--connect] [--playback-to P] [--midi-connect P]...
                           [--set NODE.PARAM=VALUE]... [--control PORT] [--osc PORT] [--threads N] [--isolation I] [--node-budget P]

        Plays SONG.mid through the chain, each event at its exact frame, until the song ends
        (a second after its last note), SIGINT, SIGTERM or 'quit'. The preset's "tracks" send
        tracks to nodes (or "output", the client's midi_out); the others go to the chain's MIDI
        input. Without --preset, the sampler (aumu:samp:AUHs) plays it as a General MIDI module
        on the system's GM bank (fluid-soundfont-gm; the package's Synth when there is none).

        While it plays, standard input and the control port take the commands of auhost run,
        and: play, stop, seek BAR[:BEAT[:TICK]]; 'status' tells song=, position=, beats=, bpm=.

          --preset P          the chain: a preset file or a UNIT (as auhost run takes them)
          --loop              play the song's bars over and over
          --from POS          start at bar POS (5, 5:3 or 5:3:240: bars and beats from 1, 480 ticks a beat)
          --transport MODE    internal (default): the player keeps its own time;
                              follow: JACK transport starts, stops and locates the song;
                              drive: as follow, and auhost is the timebase master (publishes the
                              song's bar, beat, tick and tempo to every JACK client) and rolls it;
                              midi-clock: MIDI clock at midi_in (Start, Stop, Continue, Song
                              Position, 24 clocks a beat) moves the song, at the clock's tempo
          --midi-clock-out    send MIDI clock (24 per quarter note, start, stop, continue, song
                              position) on midi_out
          --name, --server, --connect, --playback-to, --midi-connect, --set, --control, --osc, --threads, --isolation, --node-budget:
                              as auhost run

        Exits 0 at the song's end or a clean stop; 1 when the song or chain cannot be read or
        the server is missing; 64 for usage errors.

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        var options = LiveRunner.Options()
        options.clientName = try arguments.option("--name") ?? "auhost"
        options.serverName = try arguments.option("--server")
        options.connections.toSystem = arguments.flag("--connect")
        options.connections.playbackTo = try arguments.option("--playback-to")
        options.controlPort = try arguments.option("--control", expected: "a port number 0...65535") { UInt16($0) }
        options.oscPort = try arguments.option("--osc", expected: "a UDP port number 0...65535") { UInt16($0) }
        options.parallelism = try ThreadsOption.parse(&arguments)
        let isolation = try IsolationOption.parse(&arguments)
        options.nodeBudget = try IsolationOption.parseBudget(&arguments)
        let given = try arguments.option("--preset")
        let preset = given ?? defaultChain.unit
        let loops = arguments.flag("--loop")
        let from = try arguments.option("--from")
        let sync = try arguments.option("--transport", expected: "internal, follow, drive or midi-clock") { LiveSong.Sync(rawValue: $0) } ?? .internal
        options.connections.midiFrom = try arguments.options("--midi-connect")
        let sendsClock = arguments.flag("--midi-clock-out")
        let sets = try arguments.options("--set") + (given == nil ? defaultChain.sets : [])
        let file = try arguments.finish(positionals: 1...1, names: "a SONG.mid")[0]
        let sequence: MusicSequence
        do throws(MIDIFileError) {
            sequence = try MusicSequence.load(bytes: MusicSequence.fileBytes(atPath: file), path: file)
        } catch {
            throw CLIError(error.description)
        }
        var song = LiveRunner.SongOptions(request: LiveSong.Request(sequence: sequence, file: file, sync: sync, sendsMIDIClock: sendsClock), loops: loops)
        if let from {
            guard let position = CABarBeatTime(parsing: from) else {
                throw CLIError.usage("--from: '\(from)' is not a position; expected BAR[:BEAT[:TICK]] such as 5, 5:3 or 5:3:240", command: name)
            }
            song.startBeat = sequence.beats(for: position)
        }
        options.song = song
        let loaded = try PresetCommandSupport.load(preset, sets: sets, context: context, isolation: isolation, live: true)
        options.saveFolder = URL(fileURLWithPath: FileManager.default.fileExists(atPath: preset) ? URL(fileURLWithPath: preset).deletingLastPathComponent().path : ".")
        return try LiveRunner(loaded: loaded, registry: context.registry, options: options, context: context).run()
    }
}
