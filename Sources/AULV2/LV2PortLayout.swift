import AUCore

/// How a plugin's ports become buses and parameters (docs/LV2.md, "Ports"):
///
/// - Audio ports of one direction form buses: each declared port group is a bus; side-chain
///   ports (`lv2:isSideChain`) form their own buses after the main ones; the remaining
///   ungrouped ports form one bus when there are one or two of them (mono, stereo), else
///   consecutive pairs (a last odd port is a mono bus). Buses are ordered by first port.
/// - Each CV port is a mono bus of its own, after the audio buses, named "CV: name".
/// - Control inputs are parameters and control outputs read-only output parameters, with
///   the port index as the parameter ID and the port symbol as the identifier.
/// - Thread: [any] (a plain value).
struct LV2PortLayout: Sendable {
    struct Bus: Sendable {
        var name: String
        /// Port indices, one per channel.
        var ports: [UInt32]
    }

    var ports: [LV2Port]
    var inputBuses: [Bus]
    var outputBuses: [Bus]
    var parameters: [ParameterInfo]
    /// The port index of each parameter slot.
    var parameterPorts: [UInt32]

    init(ports: [LV2Port], sampleRate: Double) {
        self.ports = ports
        inputBuses = Self.buses(ports.filter { $0.isInput }, direction: "Input")
        outputBuses = Self.buses(ports.filter { !$0.isInput }, direction: "Output")
        var parameters: [ParameterInfo] = []
        var parameterPorts: [UInt32] = []
        for port in ports where port.kind == .control {
            parameters.append(Self.parameter(for: port, sampleRate: sampleRate))
            parameterPorts.append(port.index)
        }
        self.parameters = parameters
        self.parameterPorts = parameterPorts
    }

    /// The bus configurations at a sample rate.
    func configurations(_ buses: [Bus], sampleRate: Double) -> [BusConfiguration] {
        buses.map { .canonical(channels: $0.ports.count, sampleRate: sampleRate, name: $0.name) }
    }

    /// The atom input patch messages go to: the first that supports `patch:Message` and is
    /// the `lv2:control` port, else the first that supports it, else the `lv2:control` one,
    /// else the first atom input; nil when the plugin has no atom input.
    var patchInputPort: UInt32? {
        let inputs = ports.filter { $0.kind == .atom && $0.isInput }
        let choice = inputs.first { $0.supportsPatch && $0.isControlDesignated } ?? inputs.first { $0.supportsPatch }
            ?? inputs.first { $0.isControlDesignated } ?? inputs.first
        return choice?.index
    }

    private static func buses(_ ports: [LV2Port], direction: String) -> [Bus] {
        var buses: [(first: UInt32, sideChain: Bool, bus: Bus)] = []
        let audio = ports.filter { $0.kind == .audio }
        var groups: [String: Int] = [:]
        var ungrouped: [LV2Port] = []
        var sideChain: [LV2Port] = []
        for port in audio {
            if let group = port.groupURI {
                if let position = groups[group] {
                    buses[position].bus.ports.append(port.index)
                } else {
                    groups[group] = buses.count
                    let name = port.groupLabel ?? (port.isSideChain ? "Sidechain" : direction)
                    buses.append((port.index, port.isSideChain, Bus(name: name, ports: [port.index])))
                }
            } else if port.isSideChain {
                sideChain.append(port)
            } else {
                ungrouped.append(port)
            }
        }
        func addRuns(_ list: [LV2Port], name: String, sideChain: Bool) {
            guard !list.isEmpty else { return }
            let chunk = list.count <= 2 ? list.count : 2
            for start in stride(from: 0, to: list.count, by: chunk) {
                let run = Array(list[start..<min(start + chunk, list.count)])
                buses.append((run[0].index, sideChain, Bus(name: name, ports: run.map(\.index))))
            }
        }
        addRuns(ungrouped, name: direction, sideChain: false)
        addRuns(sideChain, name: "Sidechain", sideChain: true)
        var result = buses.sorted { ($0.sideChain ? 1 : 0, $0.first) < ($1.sideChain ? 1 : 0, $1.first) }.map(\.bus)
        // Number repeated names: "Input", "Input 2"…
        var seen: [String: Int] = [:]
        for index in result.indices {
            let count = seen[result[index].name, default: 0] + 1
            seen[result[index].name] = count
            if count > 1 { result[index].name += " \(count)" }
        }
        for port in ports where port.kind == .cv {
            result.append(Bus(name: "CV: \(port.name)", ports: [port.index]))
        }
        return result
    }

    /// The parameter of a control port: range (sample-rate-relative ranges scaled by
    /// `sampleRate`), default, unit, and the integer / toggled / enumeration /
    /// logarithmic properties.
    static func parameter(for port: LV2Port, sampleRate: Double) -> ParameterInfo {
        let scale: Float = port.isSampleRateRelative ? Float(sampleRate) : 1
        var minimum = port.minimum * scale
        var maximum = port.maximum * scale
        var defaultValue = port.defaultValue * scale
        if port.isToggled {
            minimum = minimum.isFinite ? minimum : 0
            maximum = maximum.isFinite ? maximum : 1
        }
        if !minimum.isFinite { minimum = min(0, defaultValue.isFinite ? defaultValue : 0) }
        if !maximum.isFinite { maximum = max(1, defaultValue.isFinite ? defaultValue : 1, minimum) }
        if maximum < minimum { swap(&minimum, &maximum) }
        if !defaultValue.isFinite { defaultValue = minimum }
        defaultValue = Swift.min(Swift.max(defaultValue, minimum), maximum)

        var unit = LV2Units.parameterUnit(port.unitURI)
        var valueStrings: [String]?
        var flags: ParameterFlags = port.isInput ? .readWrite : [.isOutput, .isReadable]
        let isWhole = port.isInteger || port.isToggled || port.isEnumeration
        if port.isToggled {
            unit = .boolean
        } else if isWhole, minimum == minimum.rounded(), maximum - minimum < 256,
                  port.scalePoints.allSatisfy({ $0.value == $0.value.rounded() }), port.isInteger || !port.scalePoints.isEmpty {
            if port.unitURI == nil || !port.scalePoints.isEmpty { unit = .indexed }
            if !port.scalePoints.isEmpty {
                valueStrings = (Int(minimum)...Int(maximum)).map { value in
                    port.scalePoints.first { Int($0.value) == value }?.label ?? String(value)
                }
            }
        }
        if unit == .indexed || unit == .boolean { defaultValue = defaultValue.rounded() }
        if port.isLogarithmic { flags.insert(.isLogarithmic) }
        if port.isInput && !isWhole { flags.insert(.canRamp) }
        return ParameterInfo(
            id: port.index, identifier: port.symbol, name: port.name, unit: unit, min: minimum, max: maximum,
            default: defaultValue, flags: flags, valueStrings: valueStrings)
    }
}

/// The units extension's units as ``ParameterUnit``s.
/// - Thread: [any]
enum LV2Units {
    static let table: [String: ParameterUnit] = [
        LV2URI.unitsDb: .decibels, LV2URI.unitsHz: .hertz, LV2URI.unitsMs: .milliseconds, LV2URI.unitsS: .seconds,
        LV2URI.unitsPc: .percent, LV2URI.unitsCent: .cents, LV2URI.unitsSemitone12TET: .relativeSemitones,
        LV2URI.unitsBpm: .bpm, LV2URI.unitsBeat: .beats, LV2URI.unitsOct: .octaves, LV2URI.unitsMidiNote: .midiNoteNumber,
        LV2URI.unitsDegree: .degrees, LV2URI.unitsFrame: .sampleFrames, LV2URI.unitsCoef: .generic,
    ]

    /// The unit of a `units:unit` value: known units by URI, anything else custom.
    static func parameterUnit(_ uri: String?) -> ParameterUnit {
        guard let uri else { return .generic }
        return table[uri] ?? .customUnit
    }
}
