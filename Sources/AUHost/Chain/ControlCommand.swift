/// One line of the live control protocol that `auhost run` reads on standard input and on
/// its control port. Each command gets exactly one reply line: `ok[ …]` or `error: …`.
/// Words are split as ``ControlWords`` says (a value with spaces in double quotes).
///
/// ```
/// set NODE PARAM VALUE      get NODE PARAM      bypass NODE on|off
/// preset NODE NAME          meters [reset]      status
/// save FILE [--force]       help                quit (or exit)
/// load NODE FILE            (a sampler's sound bank, a plugin's file)
/// play                      stop                seek BAR[:BEAT[:TICK]]   (a song: auhost play)
/// learn NODE.PARAM          unlearn NODE.PARAM  midimap                  (MIDI control)
/// snapshot NAME                                                          (snapshots)
/// open PRESET.json                                                       (auhost run: switch the chain)
/// ```
/// - Thread: [any] (a plain value).
public enum ControlCommand: Equatable, Sendable {
    case set(node: String, parameter: String, value: String)
    case get(node: String, parameter: String)
    case bypass(node: String, isOn: Bool)
    case preset(node: String, name: String)
    /// The node's file: a sampler's sound bank, an LV2 plugin's (first) file property.
    case load(node: String, file: String)
    /// Starts a new child for an isolated node and restores its last state and parameters.
    case reload(node: String)
    case meters
    /// `meters reset`: the clip counts start again from zero.
    case resetClips
    case status
    case save(path: String, force: Bool)
    case help
    case quit
    /// The song (`auhost play`) plays on from where it is.
    case play
    /// The song stops where it is.
    case stop
    /// The song moves to a bar, beat and tick (`5`, `5:3`, `5:3:240`; ticks of 480 a beat).
    case seek(position: String)
    /// The next control change that moves is mapped to the parameter (`NODE.PARAM`).
    case learn(parameter: String)
    /// Removes the parameter's MIDI mappings (and a learn waiting for it).
    case unlearn(parameter: String)
    /// Lists the MIDI mappings in force.
    case midiMap
    /// Recalls the preset's snapshot of that name, ramped.
    case snapshot(name: String)
    /// Switches the running chain to another preset, crossfaded (``LiveChain/open(_:units:)``).
    case open(file: String)

    /// The protocol summary `help` replies with (one line).
    public static let summary =
        "commands: set NODE PARAM VALUE | get NODE PARAM | bypass NODE on|off | preset NODE NAME | load NODE FILE | reload NODE | meters [reset] | status | save FILE [--force] | play | stop | seek BAR[:BEAT[:TICK]] | learn NODE.PARAM | unlearn NODE.PARAM | midimap | snapshot NAME | open PRESET.json | help | quit (or exit)"

    /// Parses one line; the error text is the reply's message.
    /// - Thread: [any]
    public init(parsing line: String) throws(ControlCommandError) {
        let words = try ControlWords.split(line)
        guard let verb = words.first?.lowercased() else { throw ControlCommandError("empty command; try 'help'") }
        let arguments = Array(words.dropFirst())
        func expect(_ count: Int, _ usage: String) throws(ControlCommandError) {
            guard arguments.count == count else { throw ControlCommandError("usage: \(usage)") }
        }
        switch verb {
        case "set":
            try expect(3, "set NODE PARAM VALUE")
            self = .set(node: arguments[0], parameter: arguments[1], value: arguments[2])
        case "get":
            try expect(2, "get NODE PARAM")
            self = .get(node: arguments[0], parameter: arguments[1])
        case "bypass":
            try expect(2, "bypass NODE on|off")
            switch arguments[1].lowercased() {
            case "on", "true", "1": self = .bypass(node: arguments[0], isOn: true)
            case "off", "false", "0": self = .bypass(node: arguments[0], isOn: false)
            default: throw ControlCommandError("bypass takes on or off, not '\(arguments[1])'")
            }
        case "preset":
            guard arguments.count >= 2 else { throw ControlCommandError("usage: preset NODE NAME") }
            self = .preset(node: arguments[0], name: arguments.dropFirst().joined(separator: " "))
        case "load":
            try expect(2, "load NODE FILE")
            self = .load(node: arguments[0], file: arguments[1])
        case "reload":
            try expect(1, "reload NODE")
            self = .reload(node: arguments[0])
        case "meters":
            guard arguments.isEmpty || (arguments.count == 1 && arguments[0].lowercased() == "reset") else { throw ControlCommandError("usage: meters [reset]") }
            self = arguments.isEmpty ? .meters : .resetClips
        case "status":
            try expect(0, "status")
            self = .status
        case "save":
            let force = arguments.contains("--force")
            let paths = arguments.filter { $0 != "--force" }
            guard paths.count == 1 else { throw ControlCommandError("usage: save FILE [--force]") }
            self = .save(path: paths[0], force: force)
        case "play":
            try expect(0, "play")
            self = .play
        case "stop":
            try expect(0, "stop")
            self = .stop
        case "seek":
            try expect(1, "seek BAR[:BEAT[:TICK]]")
            self = .seek(position: arguments[0])
        case "learn":
            try expect(1, "learn NODE.PARAM")
            self = .learn(parameter: arguments[0])
        case "unlearn":
            try expect(1, "unlearn NODE.PARAM")
            self = .unlearn(parameter: arguments[0])
        case "midimap":
            try expect(0, "midimap")
            self = .midiMap
        case "snapshot":
            guard !arguments.isEmpty else { throw ControlCommandError("usage: snapshot NAME") }
            self = .snapshot(name: arguments.joined(separator: " "))
        case "open":
            try expect(1, "open PRESET.json")
            self = .open(file: arguments[0])
        case "help":
            self = .help
        case "quit", "exit":
            try expect(0, "quit")
            self = .quit
        default:
            throw ControlCommandError("unknown command '\(verb)'; try 'help'")
        }
    }
}

/// A control line that could not be parsed or carried out; its message is the reply.
/// - Thread: [any]
public struct ControlCommandError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// - Thread: [any]
    public init(_ message: String) { self.message = message }
    /// - Thread: [any]
    public var description: String { message }
}
