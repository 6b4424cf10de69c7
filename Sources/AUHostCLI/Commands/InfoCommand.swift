import AUHost
import Foundation

/// `auhost info UNIT`: what a unit is made of, read from a fresh instance.
/// - Thread: [control]
enum InfoCommand: Command {
    static let name = "info"
    static let summary = "describe a unit: buses, parameters, presets, latency, features"
    static let help = """
        usage: auhost info UNIT [--json]
               auhost info PRESET.json [--json]

        Describes one unit: its buses and channel counts, its parameters with ranges, units
        and defaults, its property parameters (files and other named values: an LV2 plugin's
        patch:writable and patch:readable properties) with their types, its factory presets,
        latency and tail, and the host features it requires.
        UNIT is type:subtype:manufacturer (aufx:dely:AUHs), an LV2 URI (lv2:URI or the bare
        URI), or an exact name. An unknown or ambiguous UNIT lists the closest matches.
        Given a chain preset, lists its nodes and its MIDI map (each mapping's control,
        channel, parameter, range, curve and smoothing), checked as auhost run checks them.

          --json   a JSON object (see docs/CLI.md)

        """

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let json = arguments.flag("--json")
        let reference = try arguments.finish(positionals: 1...1, names: "a UNIT")[0]
        if reference.lowercased().hasSuffix(".json") || AtomicFile.NodeKind(path: reference) == .regularFile {
            let loaded = try PresetCommandSupport.load(reference, sets: [], context: context)
            defer { loaded.dispose() }
            let details = PresetDetails(loaded)
            if json { context.output.line(try JSONOutput.encode(details)) } else { context.output.write(details.text) }
            return 0
        }
        let component: Component
        do {
            component = try context.registry.resolve(reference)
        } catch {
            throw CLIError(error.message)
        }
        let details: UnitDetails
        do {
            details = try UnitDetails(component)
        } catch {
            throw CLIError("cannot instantiate \(component.description) (\(component.name)): \(error)")
        }
        if json {
            context.output.line(try JSONOutput.encode(details))
        } else {
            context.output.write(details.text)
        }
        return 0
    }
}

/// Everything `auhost info` tells about a unit.
struct UnitDetails: Encodable {
    struct Bus: Encodable {
        var element: Int
        var name: String
        var channels: Int
        var sampleRate: Double
        var format: String
    }
    struct Parameter: Encodable {
        var id: UInt32
        var identifier: String
        var name: String
        var unit: String
        var min: Float
        var max: Float
        var `default`: Float
        var scope: String
        var element: Int
        var writable: Bool
        var output: Bool
        var logarithmic: Bool
        var valueStrings: [String]?
    }
    struct Preset: Encodable {
        var number: Int
        var name: String
    }
    struct PropertyParameter: Encodable {
        var identifier: String
        var name: String
        var uri: String?
        var type: String
        var writable: Bool
    }

    var summary: UnitSummary
    var inputs: [Bus]
    var outputs: [Bus]
    var parameters: [Parameter]
    var propertyParameters: [PropertyParameter]
    var factoryPresets: [Preset]
    var latency: Double
    var tailTime: Double
    var requiredFeatures: [String]

    init(_ component: Component) throws(AudioUnitError) {
        let unit = try component.instantiate()
        defer { unit.dispose() }
        summary = UnitSummary(component)
        func buses(_ scope: Scope) throws(AudioUnitError) -> [Bus] {
            var result: [Bus] = []
            for element in 0..<unit.elementCount(scope) {
                let bus = try unit.busConfiguration(scope: scope, element: element)
                result.append(Bus(element: element, name: bus.name, channels: bus.format.channelsPerFrame, sampleRate: bus.format.sampleRate, format: bus.format.description))
            }
            return result
        }
        inputs = try buses(.input)
        outputs = try buses(.output)
        parameters = unit.parameters.infos.map { info in
            Parameter(
                id: info.id, identifier: info.identifier, name: info.name, unit: info.unit.name, min: info.minValue,
                max: info.maxValue, default: info.defaultValue, scope: info.address.scope.description,
                element: info.address.element, writable: info.isWritable, output: info.isOutput,
                logarithmic: info.flags.contains(.isLogarithmic), valueStrings: info.valueStrings)
        }
        propertyParameters = unit.propertyParameters.map { info in
            PropertyParameter(identifier: info.identifier, name: info.name, uri: info.uri, type: info.valueType.rawValue, writable: info.isWritable)
        }
        factoryPresets = try unit.value(of: .factoryPresets).map { Preset(number: $0.number, name: $0.name) }
        latency = try unit.value(of: .latency)
        tailTime = try unit.value(of: .tailTime)
        requiredFeatures = component.requiredFeatures
    }

    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(inputs, forKey: .inputs)
        try container.encode(outputs, forKey: .outputs)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(propertyParameters, forKey: .propertyParameters)
        try container.encode(factoryPresets, forKey: .factoryPresets)
        try container.encode(latency, forKey: .latency)
        try container.encode(tailTime, forKey: .tailTime)
        try container.encode(requiredFeatures, forKey: .requiredFeatures)
    }

    enum CodingKeys: String, CodingKey {
        case inputs, outputs, parameters, propertyParameters, factoryPresets, latency, tailTime, requiredFeatures
    }

    /// The human-readable description.
    var text: String {
        var lines: [String] = []
        lines.append("\(summary.name)  \(summary.type):\(summary.subtype):\(summary.manufacturer)")
        lines.append("  format:        \(summary.format)  \(summary.identifier)")
        lines.append("  manufacturer:  \(summary.manufacturerName)")
        lines.append("  version:       \(summary.version)")
        if !summary.category.isEmpty { lines.append("  category:      \(summary.category)") }
        if let broken = summary.broken { lines.append("  broken:        \(broken)") }
        lines.append("  latency:       \(formatSeconds(latency))   tail: \(formatSeconds(tailTime))")
        lines.append("  requires:      \(requiredFeatures.isEmpty ? "no host features" : requiredFeatures.joined(separator: ", "))")
        for (title, buses) in [("inputs", inputs), ("outputs", outputs)] {
            lines.append("  \(title):\(buses.isEmpty ? " none" : "")")
            for bus in buses {
                lines.append("    \(bus.element): \(bus.name) (\(bus.channels) ch)")
            }
        }
        lines.append("  parameters:\(parameters.isEmpty ? " none" : "")")
        let idWidth = parameters.map { String($0.id).count }.max() ?? 1
        let identifierWidth = min(24, parameters.map(\.identifier.count).max() ?? 0)
        for parameter in parameters {
            let symbol = ParameterUnit.allCases.first { $0.name == parameter.unit }?.symbol ?? ""
            let suffix = symbol.isEmpty ? "" : " \(symbol)"
            var line = "    \(String(parameter.id).leftPadded(to: idWidth))  \(parameter.identifier.padding(toLength: identifierWidth, withPad: " ", startingAt: 0))  \(parameter.name)"
            line += "  [\(formatNumber(parameter.min)) … \(formatNumber(parameter.max))\(suffix)]"
            if parameter.output { line += " output" } else { line += " default \(formatNumber(parameter.default))" }
            if parameter.logarithmic { line += " log" }
            if parameter.scope != "global" { line += " (\(parameter.scope) \(parameter.element))" }
            if let strings = parameter.valueStrings { line += "  {\(strings.joined(separator: ", "))}" }
            lines.append(line)
        }
        if !propertyParameters.isEmpty { lines.append("  property parameters:") }
        let propertyWidth = min(24, propertyParameters.map(\.identifier.count).max() ?? 0)
        for property in propertyParameters {
            lines.append(
                "    \(property.identifier.padding(toLength: propertyWidth, withPad: " ", startingAt: 0))  \(property.name)  [\(property.type)]"
                    + (property.writable ? "" : " read-only"))
        }
        lines.append("  factory presets:\(factoryPresets.isEmpty ? " none" : "")")
        for preset in factoryPresets { lines.append("    \(preset.number): \(preset.name)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `0 s`, `12.5 ms`, `2 s`.
func formatSeconds(_ seconds: Double) -> String {
    if seconds == 0 { return "0 s" }
    if seconds < 1 { return String(format: "%g ms", seconds * 1000) }
    return String(format: "%g s", seconds)
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
