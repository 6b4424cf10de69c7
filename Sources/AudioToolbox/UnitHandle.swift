import Synchronization
internal import AUCore
internal import AUEngine
internal import AUJACK

/// A bus of a unit: scope and element.
struct BusKey: Hashable {
    let scope: UInt32
    let element: UInt32
}

/// What an `AudioUnit` (an `AudioComponentInstance`) points at: the AUHost unit and what
/// the C API keeps beside it (client formats, C callbacks and their storage, listeners).
final class UnitHandle: @unchecked Sendable {
    let unit: EngineUnit
    let entry: ComponentEntry?
    /// The graph that owns the unit, and its node there.
    weak var graph: GraphHandle?
    var node: GraphNode?
    /// The graph `AudioUnitRender` renders when this unit is its output node (set when the
    /// graph initializes): read on the render thread without a look-up.
    var pulledGraph: Unmanaged<AudioGraph>?
    /// Formats the application set that the unit does not render in: converted at the bus.
    var clientFormats: [BusKey: StreamFormat] = [:]
    /// The buses whose stream format the program set (the others keep Apple's default: in a
    /// graph on a JACK device, the server's rate).
    var formatsSet: Set<BusKey> = []
    /// The AUPresets behind the FactoryPresets arrays handed out (``FactoryPresetStorage``),
    /// made on the first request.
    var presetStorage: FactoryPresetStorage?
    /// The C render callbacks set on input buses (to rebuild when a client format changes).
    var callbacks: [BusKey: AURenderCallbackStruct] = [:]
    /// Every callback storage ever published; freed with the handle.
    var storages: [CallbackStorage] = []
    /// The resamplers of callbacks at another rate than the device's, kept as the storages are.
    var resamplers: [CallbackResampler] = []
    var listeners: [(id: UInt32, proc: AudioUnitPropertyListenerProc, data: UnsafeMutableRawPointer?, token: ListenerToken)] = []
    var notifies = CRenderNotifies()
    /// Whether the unit is an output device (Remote I/O and friends).
    let isDevice: Bool
    /// An output device's capture (Remote I/O's element 1).
    var capture = DeviceCapture()
    /// The graph whose application input `AudioUnitRender` on element 1 reads (read on the
    /// render thread: no reference counting).
    var capturedGraph: Unmanaged<AudioGraph>?
    /// CPULoad and OfflineRender, as the program set them.
    var renderHints = RenderHints()
    /// For a standalone output unit: whether AudioOutputUnitStart started it.
    var isStarted = false
    /// The private graph a standalone JACK output unit plays through.
    var soloGraph: AudioGraph?

    init(unit: EngineUnit, entry: ComponentEntry?) {
        self.unit = unit
        self.entry = entry
        isDevice = Self.isDevice(unit)
    }

    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Every live handle, by address, so that a stale or foreign pointer is refused.
    static let live = Mutex<[UInt: UnitHandle]>([:])

    static func register(_ handle: UnitHandle) {
        live.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle.pointer)))] = handle }
    }

    static func unregister(_ handle: UnitHandle) {
        _ = live.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle.pointer)))) }
    }

    /// The handle behind `pointer`, or the OSStatus to return: ParamError for NULL,
    /// badComponentInstance for a pointer that is no live unit.
    static func lookup(_ pointer: OpaquePointer?) -> Result<UnitHandle, StatusError> {
        guard let pointer else { return .failure(StatusError(kAudio_ParamError)) }
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))
        guard let handle = live.withLock({ $0[key] }) else { return .failure(StatusError(badComponentInstance)) }
        return .success(handle)
    }

    /// Makes a C render callback the source of input bus `element`, with the bus's client format.
    func makeEngineCallback(_ callback: AURenderCallbackStruct, element: UInt32) -> RenderCallback {
        let client = clientFormats[BusKey(scope: kAudioUnitScope_Input, element: element)]
        if let client, let deviceRate = try? unit.busConfiguration(scope: .input, element: Int(element)).format.sampleRate,
           client.sampleRate != deviceRate {
            // The program's rate is not the device's (a standalone unit on JACK): resampled.
            let storage = CallbackStorage(clientFormat: client, capacityFrames: CallbackResampler.chunkFrames)
            storages.append(storage)
            let resampler = CallbackResampler(callback, storage: storage, programRate: client.sampleRate, deviceRate: deviceRate, channels: client.channelsPerFrame)
            resamplers.append(resampler)
            return resampler.engineCallback
        }
        let capacity = max(4096, (try? unit.value(of: .maximumFramesPerSlice)) ?? 4096)
        let storage = CallbackStorage(clientFormat: client, capacityFrames: capacity)
        storages.append(storage)
        return CRenderCallback(callback, storage: storage).engineCallback
    }

    /// Sets (or with a NULL procedure clears) the C render callback of input bus `element`:
    /// through the graph when the unit is a graph's node, else on the unit.
    func setRenderCallback(_ callback: AURenderCallbackStruct, element: UInt32) throws(AudioUnitError) {
        let key = BusKey(scope: kAudioUnitScope_Input, element: element)
        let engine = callback.inputProc == nil ? nil : makeEngineCallback(callback, element: element)
        if let graph, let node {
            try graph.graph.setInputCallback(engine, for: node, input: Int(element))
        } else {
            try unit.setValue(engine, for: .setRenderCallback, scope: .input, element: Int(element))
        }
        callbacks[key] = callback.inputProc == nil ? nil : callback
    }
}

/// An OSStatus carried as an error.
struct StatusError: Error {
    let status: OSStatus
    init(_ status: OSStatus) { self.status = status }
}

/// Runs `body` with the live handle of `pointer`, or returns the lookup's status.
func withUnit(_ pointer: OpaquePointer?, _ body: (UnitHandle) throws(AudioUnitError) -> OSStatus) -> OSStatus {
    apiLock.lock()
    defer { apiLock.unlock() }
    switch UnitHandle.lookup(pointer) {
    case .failure(let error): return error.status
    case .success(let handle):
        do {
            return try body(handle)
        } catch {
            return error.status
        }
    }
}

extension Scope {
    init?(c scope: UInt32) { self.init(rawValue: scope) }
}
