import AUCore
import CAUSupport
import Foundation
import Glibc

/// The child side of the bridge (`auhost-unit-host`): answers the host's requests on its
/// socket, one at a time, and renders the cycles the host posts in shared memory for its
/// initialized units (``ServedUnit``) on one render thread (``UnitHostRenderThread``) that
/// sleeps on the child's doorbell. Ends when the socket closes, or with the host (SIGKILL on
/// the host's death).
/// - Thread: [control] (the child's main thread).
public enum UnitHostServer {
    /// Serves the host on `socket` until it closes, its render thread sleeping on the
    /// doorbell memfd `doorbell` (``BridgeDoorbell``); `registry` makes the registry of a kind
    /// of reference (``registryKind(of:)``: an LV2 URI needs only the LV2 plugins), on the
    /// first instantiate that needs it, or for the kind the host is `preparing` on a thread of
    /// its own from the start (while the host still starts its other nodes' children); `configure` sets a backend's own options on a unit before it is
    /// initialized (offline mode, the nominal block length); `latencyReport` says where a
    /// unit's latency comes from (an LV2 plugin's latency output, known only once it has run:
    /// the host primes such a chain). Returns the exit status.
    /// - Thread: [control]
    public static func run(
        socket descriptor: Int32, doorbell doorbellDescriptor: Int32, hostPID: pid_t, preparing: String? = nil,
        registry makeRegistry: @escaping @Sendable (_ kind: String) -> ComponentRegistry,
        latencyReport: (AudioUnit) -> LatencyReport, configure: (AudioUnit, _ offline: Bool, _ nominalFrames: Int?) -> Void
    ) -> Int32 {
        let prepared = preparing.map { PreparedRegistry(kind: $0, make: makeRegistry) }
        guard au_bridge_die_with_parent(hostPID) == 0, let doorbell = BridgeDoorbell(descriptor: doorbellDescriptor) else { return 1 }
        close(doorbellDescriptor)
        let socket = BridgeSocket(descriptor: descriptor)
        let renderThread = UnitHostRenderThread(doorbell: doorbell)
        var registries: [String: ComponentRegistry] = [:]
        var units: [Int: ServedUnit] = [:]
        while case .message(let request) = socket.receive(BridgeRequest.self, timeout: nil) {
            var reply = BridgeReply()
            do throws(AudioUnitError) {
                if request.operation == .instantiate {
                    let reference = request.reference ?? ""
                    let kind = registryKind(of: reference)
                    let made = registries[kind] ?? (prepared?.kind == kind ? prepared!.registry : makeRegistry(kind))
                    registries[kind] = made
                    let unit = try made.resolve(reference).instantiate()
                    units[request.unit] = ServedUnit(unit, index: request.unit, renderThread: renderThread)
                    reply.unit = ServedUnit.shape(of: unit, latencyReport: latencyReport(unit))
                } else if let served = units[request.unit] {
                    try served.handle(request, hostPID: hostPID, configure: configure, reply: &reply)
                    if request.operation == .dispose { units[request.unit] = nil }
                } else {
                    throw AudioUnitError(.invalidElement, "no unit \(request.unit) in this unit host")
                }
            } catch {
                reply.error = error.message
            }
            guard socket.send(reply) else { break }
        }
        for unit in units.values { unit.stop() }
        return 0
    }

    /// Which registry resolves `reference`: `lv2` for an `lv2:` URI, `all` for the rest.
    /// - Thread: [any]
    public static func registryKind(of reference: String) -> String {
        reference.hasPrefix("lv2:") ? "lv2" : "all"
    }
}

/// A registry built on a thread of its own from the child's start.
/// - Thread: [control] ``registry`` waits for it.
final class PreparedRegistry: @unchecked Sendable {
    let kind: String
    private var made: ComponentRegistry?
    private let done = DispatchSemaphore(value: 0)

    init(kind: String, make: @escaping @Sendable (String) -> ComponentRegistry) {
        self.kind = kind
        let thread = Thread { [self] in
            made = make(kind)
            done.signal()
        }
        thread.name = "auhost unit-host registry"
        thread.start()
    }

    /// The registry, once built.
    var registry: ComponentRegistry {
        done.wait()
        done.signal()
        return made!
    }
}

/// One unit in the child, and its cycles while initialized.
/// - Thread: [control]
final class ServedUnit: @unchecked Sendable {
    let unit: AudioUnit
    /// The unit's index in the host's requests.
    let index: Int
    private let renderThread: UnitHostRenderThread
    private var render: ServedRender?

    init(_ unit: AudioUnit, index: Int, renderThread: UnitHostRenderThread) {
        self.unit = unit
        self.index = index
        self.renderThread = renderThread
    }

    static func shape(of unit: AudioUnit, latencyReport: LatencyReport) -> BridgeUnitShape {
        let inputs = (0..<unit.elementCount(.input)).map { (try? unit.busConfiguration(scope: .input, element: $0).format.channelsPerFrame) ?? 0 }
        let outputs = (0..<unit.elementCount(.output)).map { (try? unit.busConfiguration(scope: .output, element: $0).format.channelsPerFrame) ?? 0 }
        return BridgeUnitShape(
            name: unit.name, inputs: inputs, outputs: outputs, sampleRate: (try? unit.value(of: .sampleRate)) ?? 48_000,
            parameters: unit.parameters.infos.map(BridgeParameter.init), properties: unit.propertyParameters.map(BridgeProperty.init),
            acceptsMIDIInput: unit.acceptsMIDIInput,
            rendersWholeCycles: unit.rendersWholeCycles, parametersHoldCustomState: unit.parametersHoldCustomState,
            latencyReport: latencyReport, producesMIDIOutput: unit.producesMIDIOutput, latency: unit.latency, tail: unit.tailTime)
    }

    func handle(
        _ request: BridgeRequest, hostPID: pid_t, configure: (AudioUnit, Bool, Int?) -> Void, reply: inout BridgeReply
    ) throws(AudioUnitError) {
        switch request.operation {
        case .instantiate: break
        case .initialize:
            stop()
            try initialize(request, hostPID: hostPID, configure: configure)
            reply.latency = unit.latency
            reply.tail = unit.tailTime
        case .uninitialize: stop()
        case .reset: try unit.reset()
        case .timing:
            reply.latency = unit.latency
            reply.tail = unit.tailTime
        case .factoryPresets:
            reply.presets = unit.factoryPresets.map { BridgePreset(number: $0.number, name: $0.name) }
        case .schedule:
            if let priority = request.priority { try renderThread.schedule(priority) }
        case .saveCustomState:
            unit.stateFolder = request.stateFolder.map { URL(fileURLWithPath: $0) }
            reply.data = try unit.saveCustomState()
        case .restoreCustomState:
            unit.stateFolder = request.stateFolder.map { URL(fileURLWithPath: $0) }
            if let data = request.data { try unit.restoreCustomState(data) }
            reply.values = unit.parameters.currentValues
        case .applyFactoryPreset:
            guard let preset = unit.factoryPresets.first(where: { $0.number == request.preset }) else {
                throw AudioUnitError(.invalidPropertyValue, "\(unit.name) has no factory preset number \(request.preset ?? -1)")
            }
            try unit.setValue(preset, for: .presentPreset)
            reply.values = unit.parameters.currentValues
        case .setPropertyParameter:
            guard let identifier = request.property, let value = request.value?.value else {
                throw AudioUnitError(.invalidPropertyValue, "a property request without a property or value")
            }
            try unit.setPropertyParameter(identifier, to: value)
            reply.values = unit.parameters.currentValues
        case .propertyParameterValue:
            reply.value = request.property.flatMap { unit.propertyParameterValue($0) }.map(BridgeValue.init)
        case .dispose:
            stop()
            unit.dispose()
        }
    }

    /// Sets the host's rate, channels and slice length, initializes the unit, maps the
    /// host's memfd and has the render thread render its cycles.
    private func initialize(_ request: BridgeRequest, hostPID: pid_t, configure: (AudioUnit, Bool, Int?) -> Void) throws(AudioUnitError) {
        guard let rate = request.sampleRate, let frames = request.maximumFrames, let inputs = request.inputChannels,
              let outputs = request.outputChannels, let memory = request.memoryFD
        else { throw AudioUnitError(.failedInitialization, "an initialize request without its shape") }
        unit.uninitialize()
        try unit.setValue(rate, for: .sampleRate)
        try unit.setValue(frames, for: .maximumFramesPerSlice)
        for (scope, counts) in [(Scope.input, inputs), (.output, outputs)] {
            for (bus, channels) in counts.enumerated() {
                try unit.setValue(.canonical(sampleRate: rate, channels: channels), for: .streamFormat, scope: scope, element: bus)
            }
        }
        configure(unit, request.offline ?? false, request.nominalFrames)
        // The host's values, as an instance in its process would have them before it initializes.
        for (index, value) in (request.values ?? []).enumerated() where index < unit.parameters.count {
            let info = unit.parameters.infos[index]
            guard info.isWritable, !info.isOutput, unit.parameters.value(at: index) != value else { continue }
            try? unit.setParameter(info.address.id, value: value, scope: info.address.scope, element: info.address.element)
        }
        try unit.initialize()
        let descriptor = open("/proc/\(hostPID)/fd/\(memory)", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw AudioUnitError(.failedInitialization, "cannot open the host's shared memory: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard let region = BridgeRegion(descriptor: descriptor, parameterCount: unit.parameters.count, inputChannels: inputs, outputChannels: outputs, maximumFrames: frames),
              region.size == request.memorySize
        else { throw AudioUnitError(.failedInitialization, "cannot map the host's shared memory as this unit's") }
        let render = ServedRender(unit, region, index: index)
        self.render = render
        try renderThread.add(render)
    }

    /// Stops rendering the unit's cycles (if it was) and uninitializes it.
    func stop() {
        if let render { renderThread.remove(render) }
        render = nil
        unit.uninitialize()
    }
}
