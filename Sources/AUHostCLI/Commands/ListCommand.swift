import AUHost

/// `auhost list`: one line per unit, filtered by codes and format; `--json` for scripts.
/// - Thread: [control]
enum ListCommand: Command {
    static let name = "list"
    static let summary = "list the units on this machine"
    static let help = """
        usage: auhost list [--type T] [--subtype S] [--manufacturer M] [--format lv2|native|builtin] [--probe] [--json]

        Lists every unit AUHost can load, one line each: type:subtype:manufacturer, name,
        format and identifier (LV2 URI, library path or built-in name). Units a probe found
        broken are marked [broken]. Problems met while discovering units go to standard error.

          --type T          only units of type T (aufx, aumu, augn, aumx, auou, aufc, ...)
          --subtype S       only units with subtype S
          --manufacturer M  only units by manufacturer code M
          --format F        only lv2, native or builtin units
          --probe           first run each LV2 plugin once in a child process (verdicts are
                            cached by binary path, size and mtime; see docs/LV2.md)
          --json            a JSON array of objects (see docs/CLI.md)

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        func code(_ option: String) throws(CLIError) -> FourCharCode {
            try arguments.option(option, expected: "a code of 1 to 4 characters") { FourCharCode(parsing: $0) } ?? .wildcard
        }
        let search = ComponentDescription(type: try code("--type"), subtype: try code("--subtype"), manufacturer: try code("--manufacturer"))
        let format = try arguments.option("--format", expected: "lv2, native or builtin", ComponentFormat.init(rawValue:))
        let json = arguments.flag("--json")
        let probe = arguments.flag("--probe")
        _ = try arguments.finish()

        var units = context.registry.components(matching: search).filter { format == nil || $0.format == format }
        context.reportDiscoveryProblems()
        if probe { units = ProbeUnitCommand.probeAndMark(units, context) }
        if json {
            context.output.line(try JSONOutput.encode(units.map(UnitSummary.init)))
            return 0
        }
        let nameWidth = min(40, units.map(\.name.count).max() ?? 0)
        for unit in units {
            let name = unit.name.count > nameWidth ? String(unit.name.prefix(nameWidth - 1)) + "…" : unit.name
            let broken = unit.brokenReason == nil ? "" : "  [broken: \(unit.brokenReason!)]"
            context.output.line(
                "\(unit.description)  \(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  \(unit.format.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(unit.identifier)\(broken)")
        }
        return 0
    }
}

/// One unit in `list --json`.
struct UnitSummary: Encodable {
    var type: String
    var subtype: String
    var manufacturer: String
    var name: String
    var manufacturerName: String
    var version: String
    var format: String
    var identifier: String
    var category: String
    var broken: String?

    init(_ component: Component) {
        type = component.description.type.description
        subtype = component.description.subtype.description
        manufacturer = component.description.manufacturer.description
        name = component.name
        manufacturerName = component.manufacturerName
        version = component.version
        format = component.format.rawValue
        identifier = component.identifier
        category = component.category
        broken = component.brokenReason
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(subtype, forKey: .subtype)
        try container.encode(manufacturer, forKey: .manufacturer)
        try container.encode(name, forKey: .name)
        try container.encode(manufacturerName, forKey: .manufacturerName)
        try container.encode(version, forKey: .version)
        try container.encode(format, forKey: .format)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(category, forKey: .category)
        try container.encode(broken, forKey: .broken)
    }

    enum CodingKeys: String, CodingKey {
        case type, subtype, manufacturer, name, manufacturerName, version, format, identifier, category, broken
    }
}
