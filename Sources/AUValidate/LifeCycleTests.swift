import AUCore
import Foundation

/// auval's opening phases: open times, the unit's description against its instance, and
/// instantiate / initialize / uninitialize / dispose again and again.
enum LifeCycleTests {
    /// An open slower than this is a warning (a host scans and opens units while it starts).
    static let slowOpen = 1.0

    static let open = ValidationTest("open", strictness: 1, "instantiates the unit twice (cold, warm) and disposes it; WARN when an open takes over 1 s") { context in
        let cold = try time { _ = try context.instance() }
        let warm = try time { _ = try context.instance() }
        let text = "cold \(SignalCheck.duration(cold)), warm \(SignalCheck.duration(warm))"
        return cold > slowOpen || warm > slowOpen ? ValidationResult(.warn, "slow to open: " + text) : ValidationResult(.pass, text)
    }

    static let info = ValidationTest("info", strictness: 1, "codes, names, buses, and the parameter list against parameter info agree") { context in
        let description = context.component.description
        for (what, code) in [("type", description.type), ("subtype", description.subtype), ("manufacturer", description.manufacturer)] {
            try require(code != .wildcard, "the \(what) code is 0")
        }
        try require(!context.component.name.isEmpty, "the unit has no name")
        let unit = try context.instance()
        try require(unit.componentDescription == description, "the instance says it is \(unit.componentDescription), the component \(description)")
        for scope in [Scope.input, .output] {
            let formats = unit.formats(scope)
            try require(unit.elementCount(scope) == formats.count, "ElementCount of the \(scope) scope is \(unit.elementCount(scope)), but it has \(formats.count) buses")
            for (element, format) in formats.enumerated() {
                do throws(AudioUnitError) { try format.validate() } catch { throw ValidationFailure("\(scope) bus \(element): \(error.message)") }
                try require(format.channelsPerFrame >= 1, "\(scope) bus \(element) has no channel")
            }
        }
        if context.kind != .midiProcessor { try require(!unit.formats(.output).isEmpty, "a \(description.type) unit without an output bus") }
        let infos = unit.parameters.infos
        try require(Set(infos.map(\.address)).count == infos.count, "two parameters share an address")
        try require(Set(infos.map(\.identifier)).count == infos.count, "two parameters share an identifier")
        var listed: [ParameterAddress] = []
        for scope in [Scope.global, .input, .output] {
            let elements = scope == .global ? [0] : Array(0..<unit.elementCount(scope))
            for element in elements {
                for id in try unit.value(of: .parameterList, scope: scope, element: element) {
                    let address = ParameterAddress(id, scope: scope, element: element)
                    listed.append(address)
                    let info = try unit.value(of: .parameterInfo, scope: scope, element: Element(id))
                    try require(info.address.id == id, "ParameterInfo of ID \(id) describes ID \(info.address.id)")
                }
            }
        }
        // A unit that can add buses may describe the parameters of buses it has not yet.
        let present = infos.map(\.address).filter { $0.scope == .global || $0.element < unit.elementCount($0.scope) }
        try require(Set(listed) == Set(present), "ParameterList names \(listed.count) parameters, the unit has \(present.count) on its scopes and elements")
        for info in infos {
            try require(!info.identifier.isEmpty && !info.name.isEmpty, "parameter \(info.address) has no identifier or no name")
        }
        return ValidationResult(.pass, "\(description) '\(unit.name)': \(unit.formats(.input).count) in, \(unit.formats(.output).count) out, \(infos.count) parameters")
    }

    static let initializeCycles = ValidationTest("initialize-cycles", strictness: 2, "initialize / render / uninitialize again and again, then instantiate / dispose again and again") { context in
        let cycles = max(3, context.settings.strictness * 2)
        let unit = try context.instance()
        try context.configure(unit, sampleRate: ValidationSettings.sampleRate, maximumFrames: ValidationSettings.blockSize)
        let renderer = try context.renderer(unit)
        for cycle in 1...cycles {
            try unit.initialize()
            try require(unit.state == .initialized, "not initialized after initialize \(cycle)")
            let status = renderer.renderBlock(frames: ValidationSettings.blockSize)
            try require(status == 0, "render after initialize \(cycle) returned \(statusName(status))")
            unit.uninitialize()
            try require(unit.state == .uninitialized, "still initialized after uninitialize \(cycle)")
            let status2 = renderer.renderBlock(frames: ValidationSettings.blockSize)
            try require(status2 == AudioUnitErrorCode.uninitialized.rawValue, "render while uninitialized returned \(statusName(status2)); expected Uninitialized")
        }
        for _ in 1...cycles {
            let other = try context.instance()
            try other.initialize()
            other.dispose()
            try require(thrownError { try other.initialize() }?.code == .instanceInvalidated, "initialize after dispose did not fail with InstanceInvalidated")
        }
        return ValidationResult(.pass, "\(cycles) initialize cycles, \(cycles) instances opened and disposed")
    }

    /// Seconds `body` took.
    static func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
