import AUCore
import CAUSupport
import Foundation
import Glibc

/// The child side of the bridge (`auhost-unit-host`): answers the host's requests on its
/// socket, one at a time, and renders each initialized unit on a thread of its own that
/// waits for the host's cycles in shared memory (``ServedUnit``). Ends when the socket
/// closes, or with the host (SIGKILL on the host's death).
/// - Thread: [control] (the child's main thread).
public enum UnitHostServer {
    /// Serves the host on `socket` until it closes; `registry` is made on the first
    /// instantiate; `configure` sets a backend's own options on a unit before it is
    /// initialized (offline mode, the nominal block length); `reportsLatencyWhenRun` says
    /// whether a unit's latency is known only once it has run (an LV2 plugin's latency port:
    /// the host primes such a chain). Returns the exit status.
    /// - Thread: [control]
    public static func run(
        socket descriptor: Int32, hostPID: pid_t, registry makeRegistry: () -> ComponentRegistry,
        reportsLatencyWhenRun: (AudioUnit) -> Bool, configure: (AudioUnit, _ offline: Bool, _ nominalFrames: Int?) -> Void
    ) -> Int32 {
        guard au_bridge_die_with_parent(hostPID) == 0 else { return 1 }
        let socket = BridgeSocket(descriptor: descriptor)
        var registry: ComponentRegistry?
        var units: [Int: ServedUnit] = [:]
        while case .message(let request) = socket.receive(BridgeRequest.self, timeout: nil) {
            var reply = BridgeReply()
            do throws(AudioUnitError) {
                if request.operation == .instantiate {
                    let made = registry ?? makeRegistry()
                    registry = made
                    let unit = try made.resolve(request.reference ?? "").instantiate()
                    units[request.unit] = ServedUnit(unit)
                    reply.unit = ServedUnit.shape(of: unit, reportsLatencyWhenRun: reportsLatencyWhenRun(unit))
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
}

/// One unit in the child, and its render thread while initialized.
/// - Thread: [control], but the render thread's loop.
final class ServedUnit: @unchecked Sendable {
    let unit: AudioUnit
    private var region: BridgeRegion?
    private var finished: DispatchSemaphore?
    /// The render thread, while it runs, and the SCHED_FIFO priority it is to have.
    private var renderThread: pthread_t?
    private var priority: Int32?

    init(_ unit: AudioUnit) { self.unit = unit }

    static func shape(of unit: AudioUnit, reportsLatencyWhenRun: Bool) -> BridgeUnitShape {
        let inputs = (0..<unit.elementCount(.input)).map { (try? unit.busConfiguration(scope: .input, element: $0).format.channelsPerFrame) ?? 0 }
        let outputs = (0..<unit.elementCount(.output)).map { (try? unit.busConfiguration(scope: .output, element: $0).format.channelsPerFrame) ?? 0 }
        return BridgeUnitShape(
            name: unit.name, inputs: inputs, outputs: outputs, sampleRate: (try? unit.value(of: .sampleRate)) ?? 48_000,
            parameters: unit.parameters.infos.map(BridgeParameter.init), properties: unit.propertyParameters.map(BridgeProperty.init),
            presets: unit.factoryPresets.map { BridgePreset(number: $0.number, name: $0.name) }, acceptsMIDIInput: unit.acceptsMIDIInput,
            rendersWholeCycles: unit.rendersWholeCycles, parametersHoldCustomState: unit.parametersHoldCustomState,
            reportsLatencyWhenRun: reportsLatencyWhenRun, producesMIDIOutput: unit.producesMIDIOutput, latency: unit.latency, tail: unit.tailTime)
    }

    private var values: [Float] { (0..<unit.parameters.count).map { unit.parameters.value(at: $0) } }

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
        case .schedule:
            priority = request.priority
            try applyPriority()
        case .saveCustomState:
            unit.stateFolder = request.stateFolder.map { URL(fileURLWithPath: $0) }
            reply.data = try unit.saveCustomState()
        case .restoreCustomState:
            unit.stateFolder = request.stateFolder.map { URL(fileURLWithPath: $0) }
            if let data = request.data { try unit.restoreCustomState(data) }
            reply.values = values
        case .applyFactoryPreset:
            guard let preset = unit.factoryPresets.first(where: { $0.number == request.preset }) else {
                throw AudioUnitError(.invalidPropertyValue, "\(unit.name) has no factory preset number \(request.preset ?? -1)")
            }
            try unit.setValue(preset, for: .presentPreset)
            reply.values = values
        case .setPropertyParameter:
            guard let identifier = request.property, let value = request.value?.value else {
                throw AudioUnitError(.invalidPropertyValue, "a property request without a property or value")
            }
            try unit.setPropertyParameter(identifier, to: value)
            reply.values = values
        case .propertyParameterValue:
            reply.value = request.property.flatMap { unit.propertyParameterValue($0) }.map(BridgeValue.init)
        case .dispose:
            stop()
            unit.dispose()
        }
    }

    /// Sets the host's rate, channels and slice length, initializes the unit, maps the
    /// host's memfd and starts the render thread.
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
        try unit.initialize()
        let descriptor = open("/proc/\(hostPID)/fd/\(memory)", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw AudioUnitError(.failedInitialization, "cannot open the host's shared memory: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard let region = BridgeRegion(descriptor: descriptor, parameterCount: unit.parameters.count, inputChannels: inputs, outputChannels: outputs, maximumFrames: frames),
              region.size == request.memorySize
        else { throw AudioUnitError(.failedInitialization, "cannot map the host's shared memory as this unit's") }
        self.region = region
        let finished = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        self.finished = finished
        nonisolated(unsafe) var handle = pthread_self()
        let thread = Thread { [unit] in
            handle = pthread_self()
            started.signal()
            ServedUnit.renderLoop(unit, region)
            finished.signal()
        }
        thread.name = "auhost unit-host render"
        thread.stackSize = 1 << 20
        thread.start()
        started.wait()
        renderThread = handle
        try applyPriority()
    }

    /// Gives the render thread the host's real-time priority (SCHED_FIFO), when asked for.
    private func applyPriority() throws(AudioUnitError) {
        guard let priority, let renderThread else { return }
        var parameters = sched_param(sched_priority: priority)
        let result = pthread_setschedparam(renderThread, SCHED_FIFO, &parameters)
        guard result == 0 else {
            throw AudioUnitError(.notPermitted, "cannot run the unit host's render thread at SCHED_FIFO \(priority): \(String(cString: strerror(result)))")
        }
    }

    /// Stops the render thread (if running) and uninitializes the unit.
    func stop() {
        if let region, let finished {
            au_bridge_stop(region.header)
            finished.wait()
        }
        region = nil
        finished = nil
        renderThread = nil
        unit.uninitialize()
    }

    /// Waits for each cycle the host posts, renders it over the shared memory, answers.
    private static func renderLoop(_ unit: AudioUnit, _ region: BridgeRegion) {
        let header = region.header
        let table = unit.parameters
        let inputs = UnsafeMutableBufferPointer<AudioBuffers>.allocate(capacity: region.inputs.count)
        let outputs = UnsafeMutableBufferPointer<AudioBuffers>.allocate(capacity: region.outputs.count)
        var channelTables: [UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>] = []
        for (buffers, buses) in [(inputs, region.inputs), (outputs, region.outputs)] {
            for (bus, channels) in buses.enumerated() {
                let pointers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels.count)
                _ = pointers.initialize(from: channels)
                channelTables.append(pointers)
                (buffers.baseAddress! + bus).initialize(to: AudioBuffers(channelPointers: pointers, frameCount: region.maximumFrames))
            }
        }
        defer {
            channelTables.forEach { $0.deallocate() }
            inputs.deallocate()
            outputs.deallocate()
        }
        let writable = table.infos.indices.filter { table.infos[$0].isWritable }
        var parameterWrites: UInt32 = 0
        var last: UInt32 = 0
        while true {
            let sequence = au_bridge_await_request(header, last)
            if sequence == 0 { break }
            last = sequence
            let started = au_bridge_now()
            let frames = Int(header.pointee.frames)
            if header.pointee.parameterWrites != parameterWrites {
                parameterWrites = header.pointee.parameterWrites
                for index in writable where table.value(at: index) != region.parameters[index] { table.storeValue(region.parameters[index], at: index) }
            }
            for bus in inputs.indices { inputs[bus].frameCount = frames }
            for bus in outputs.indices { outputs[bus].frameCount = frames }
            let midi = UnsafeBufferPointer(start: region.midi, count: min(Int(header.pointee.midiCount), BridgeRegion.midiCapacity))
            header.pointee.status = unit.renderCycleFromDriver(
                timestamp: RenderTimestamp(sampleTime: header.pointee.sampleTime), frameCount: min(frames, region.maximumFrames),
                inputs: UnsafeBufferPointer(inputs), outputs: UnsafeBufferPointer(outputs), midi: midi)
            header.pointee.renderNanos = UInt32(clamping: au_bridge_now() - started)
            au_bridge_post_reply(header, sequence)
        }
    }
}
