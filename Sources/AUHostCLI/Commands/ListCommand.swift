import AUHost

/// `auhost list`: one line per unit, filtered by codes and format; `--json` for scripts.
/// - Thread: [control]
enum ListCommand: Command {
    static let name = "list"
    static let summary = "list the units on this machine"
    static let help = """
        usage: auhost list [TEXT] [--category NAME] [--effects] [--type T] [--subtype S] [--manufacturer M]
                           [--format lv2|native|builtin] [--probe] [--validated] [--json]

        Lists every unit AUHost can load, one line each: type:subtype:manufacturer, name,
        category, format and identifier (LV2 URI, library path or built-in name). Units a probe
        found broken are marked [broken]. Problems met while discovering units go to standard
        error. Filters combine.

          TEXT              only units with TEXT (case-insensitive) in their name, manufacturer
                            name, codes (aufx, gain, AUHs or aufx:gain:AUHs), identifier or URI,
                            or category
          --category NAME   only units of category NAME, case-insensitive (Reverb, Delay,
                            Compressor, Amplifier, Simulator, EQ, Utility, ...)
          --effects         only effects: an effect may be either type, aufx (effect) or aumf
                            (music effect, an effect that also takes MIDI)
          --type T          only units of type T (aufx, aumf, aumu, augn, aumx, auou, aufc, ...)
          --subtype S       only units with subtype S
          --manufacturer M  only units by manufacturer code M
          --format F        only lv2, native or builtin units
          --probe           first run each LV2 plugin once in a child process (verdicts are
                            cached by binary path, size and mtime; see docs/LV2.md)
          --validated       mark each unit with its cached 'auhost validate' verdict
                            ([validated: passed at strictness 5], [validation failed at
                            strictness 5: latency, tail] or [not validated])
          --json            a JSON array of objects (see docs/CLI.md); "validation" holds the
                            cached 'auhost validate' verdict, null when none

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        func code(_ option: String) throws(CLIError) -> FourCharCode {
            try arguments.option(option, expected: "a code of 1 to 4 characters") { FourCharCode(parsing: $0) } ?? .wildcard
        }
        let search = ComponentDescription(type: try code("--type"), subtype: try code("--subtype"), manufacturer: try code("--manufacturer"))
        let format = try arguments.option("--format", expected: "lv2, native or builtin", ComponentFormat.init(rawValue:))
        let category = try arguments.option("--category")
        let effects = arguments.flag("--effects")
        let json = arguments.flag("--json")
        let probe = arguments.flag("--probe")
        let validated = arguments.flag("--validated")
        let text = try arguments.finish(positionals: 0...1, names: "at most one TEXT").first ?? ""

        var units = context.registry.components(matching: search).filter { unit in
            (format == nil || unit.format == format)
                && (!effects || effectTypes.contains(unit.description.type))
                && (category.map(unit.isInCategory) ?? true)
                && unit.matches(searchText: text)
        }
        context.reportDiscoveryProblems()
        if probe { units = ProbeUnitCommand.probeAndMark(units, context) }
        let verdicts = json || validated ? ValidateCommand.cachedVerdicts(units) : [:]
        if json {
            context.output.line(try JSONOutput.encode(units.map { UnitSummary($0, validation: verdicts[$0.identifier]) }))
            return 0
        }
        let nameWidth = min(40, units.map(\.name.count).max() ?? 0)
        let categoryWidth = min(20, units.map(\.categoryName.count).max() ?? 0)
        for unit in units {
            let broken = (unit.brokenReason == nil ? "" : "  [broken: \(unit.brokenReason!)]") + (validated ? "  " + ValidateCommand.mark(verdicts[unit.identifier]) : "")
            let columns = [column(unit.name, nameWidth)] + (categoryWidth == 0 ? [] : [column(unit.categoryName, categoryWidth)])
                + [column(unit.format.rawValue, 7)]
            context.output.line("\(unit.description)  \(columns.joined(separator: "  "))  \(unit.identifier)\(broken)")
        }
        return 0
    }

    /// The types `--effects` lists: Core Audio's effect and music effect.
    static let effectTypes: Set<FourCharCode> = [ComponentType.effect, ComponentType.musicEffect]

    /// `text` cut (with an ellipsis) or padded to `width` characters (in Swift: Foundation's
    /// `padding(toLength:)` bridged each name to NSString, 8 % of `auhost list`).
    static func column(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count > width ? String(text.prefix(max(0, width - 1))) + "…" : text + String(repeating: " ", count: width - count)
    }
}
