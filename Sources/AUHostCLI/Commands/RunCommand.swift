import AUHost
import Foundation

/// `auhost run`: a chain preset, live inside the JACK process callback.
/// - Thread: [control]
enum RunCommand: Command {
    static let name = "run"
    static let summary = "run a chain preset live on JACK, controlled from stdin or a port"
    static let help = """
        usage: auhost run (PRESET.json | UNIT) [--name N] [--server S] [--connect] [--capture-from P] [--playback-to P]
                          [--midi-connect P]... [--set NODE.PARAM=VALUE]... [--reconnect] [--control PORT] [--osc PORT]
                          [--save-dir DIR] [--threads N] [--pipeline] [--isolation none|together|per-unit] [--node-budget P]
                          [--bank FOLDER] [--crossfade MS]

        PRESET.json may also be a UNIT (lv2:URI, type:subtype:manufacturer or a name) that is
        no file: a chain of that one unit, whose parameters --set PARAM=VALUE sets.

        Loads the chain and runs it as a JACK client until SIGINT or SIGTERM (or 'quit'),
        then fades out and unregisters its ports. The chain runs at the server's sample
        rate (a preset's sampleRate is the rate it was designed at: a note says so when the
        server runs at another).

        While running, each line on standard input is a command with a one-line reply
        (ok ... or error: ...):
          set NODE PARAM VALUE    get NODE PARAM    bypass NODE on|off    preset NODE NAME
          meters                  status            save FILE [--force]   help    quit
          open PRESET.json        (switches the whole chain, crossfaded; ports and connections stay)
        On a terminal, a status line on standard error shows DSP load, xruns and latency.

          --name N          the JACK client name (default: auhost)
          --server S        the JACK server name (default: the default server)
          --connect         connect to the system's capture and playback ports
          --capture-from P  connect the capture ports (in_N) from the audio ports matching the regex P
          --playback-to P   connect the playback ports (out_N) to the audio ports matching the regex P
          --midi-connect P  connect JACK MIDI output ports matching the regex P to midi_in,
                            also those that appear later
          --set N.P=V       set a parameter before starting (repeatable)
          --reconnect       when the server goes away, wait for it and carry on
          \(ThreadsOption.help)
          \(IsolationOption.help)
          --pipeline        let a serial chain render in two stages one period apart, on
                            JACK's thread and a render worker (needs --threads 2 or more): one
                            period more latency (reported on the ports, and in 'status'); a
                            period costs its larger stage, not the whole chain
          --control PORT    also serve the commands on 127.0.0.1:PORT (0: any free port) to clients
                            whose first line is 'auth TOKEN', the token printed on standard error
          --osc PORT        also take the commands as OSC messages on UDP 127.0.0.1:PORT (0: any
                            free port): /VERB with the words as arguments, the reply sent back
                            as /reply; save and quit are refused over OSC
          --bank FOLDER     program change N on midi_in opens the folder's Nth preset (its *.json
                            files sorted by name, from 0) instead of recalling snapshot N;
                            snapshots are then recalled by name ('snapshot NAME')
          --crossfade MS    how long 'open' crossfades from one chain to the next (default 50)
          --save-dir DIR    the folder 'save FILE' writes into (default: the preset's folder);
                            FILE is a name inside it, never an absolute path or one with ..

        Exits 0 after a clean stop; 1 when the server is missing or goes away (without
        --reconnect) or the chain cannot run; 64 for usage errors.

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        var options = LiveRunner.Options()
        options.clientName = try arguments.option("--name") ?? "auhost"
        options.serverName = try arguments.option("--server")
        options.connections.toSystem = arguments.flag("--connect")
        options.connections.captureFrom = try arguments.option("--capture-from")
        options.connections.playbackTo = try arguments.option("--playback-to")
        options.connections.midiFrom = try arguments.options("--midi-connect")
        options.reconnect = arguments.flag("--reconnect")
        options.parallelism = try ThreadsOption.parse(&arguments)
        let isolation = try IsolationOption.parse(&arguments)
        options.nodeBudget = try IsolationOption.parseBudget(&arguments)
        if arguments.flag("--pipeline") {
            guard options.parallelism.threads >= 2 else { throw .usage("--pipeline needs at least 2 threads (--threads 2 or more)", command: name) }
            options.parallelism.pipelineStages = 2
        }
        options.controlPort = try arguments.option("--control", expected: "a port number 0...65535") { UInt16($0) }
        options.oscPort = try arguments.option("--osc", expected: "a UDP port number 0...65535") { UInt16($0) }
        if let folder = try arguments.option("--bank") { options.bank = try bank(folder) }
        if let milliseconds = try arguments.option("--crossfade", expected: "milliseconds 1...10000", { Double($0).flatMap { (1...10_000).contains($0) ? $0 : nil } }) {
            options.crossfade = milliseconds / 1000
        }
        let saveDirectory = try arguments.option("--save-dir")
        let sets = try arguments.options("--set")
        let file = try arguments.finish(positionals: 1...1, names: "a PRESET.json")[0]
        options.saveFolder = URL(fileURLWithPath: saveDirectory ?? URL(fileURLWithPath: file).deletingLastPathComponent().path)
        var isFolder: ObjCBool = false
        if let saveDirectory, !FileManager.default.fileExists(atPath: saveDirectory, isDirectory: &isFolder) || !isFolder.boolValue {
            throw CLIError("\(saveDirectory): no such folder (--save-dir)")
        }
        let loaded = try PresetCommandSupport.load(file, sets: sets, context: context, isolation: isolation, live: true)
        options.load = { name throws(CLIError) in try PresetCommandSupport.load(name, sets: [], context: context, isolation: isolation, live: true) }
        let runner = LiveRunner(loaded: loaded, registry: context.registry, options: options, context: context)
        return try runner.run()
    }

    /// The presets of `--bank FOLDER`: its `*.json` files sorted by name; none is an error.
    static func bank(_ folder: String) throws(CLIError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw CLIError("\(folder): no such folder (--bank)")
        }
        let presets = names.filter { $0.lowercased().hasSuffix(".json") }.sorted()
        guard !presets.isEmpty else { throw CLIError("\(folder): no *.json preset in the folder (--bank)") }
        return presets.map { URL(fileURLWithPath: folder).appendingPathComponent($0).path }
    }
}
