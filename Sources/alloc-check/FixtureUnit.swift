import AUCore
import Glibc
import Synchronization

/// What the fixture unit does wrong on purpose in its render (`--misbehave`), to prove that
/// alloc-check catches it. Only alloc-check makes this unit; no shipped code path can.
enum Misbehaviour: String {
    /// Renders cleanly.
    case none
    /// Appends to a Swift array (an allocation).
    case allocate
    /// Sleeps a microsecond (`nanosleep`, a system call).
    case usleep
    /// Writes zero bytes to standard error (`write`, a system call).
    case write
    /// Takes a Swift `Mutex` that the control thread holds now and then (a futex wait, no libc call).
    case mutex
}

/// A unit that only alloc-check instantiates: it renders in fixed blocks of
/// ``blockFrames`` (so the graph runs its fixed-block adapter), reports ``latencyFrames``
/// of latency (so the graph compensates the other paths with delay lines), outputs NaN on
/// the cycles the control thread asks for (so the graph mutes it and sends a notice), and
/// misbehaves in render when told to.
/// - Thread: [control] for set-up and ``requestNaN()``; ``process(_:)`` on the render thread.
final class FixtureUnit: AudioUnit, BlockSizeConstrained, @unchecked Sendable {
    static let blockFrames = 48
    static let latencyFrames = 37
    let misbehaviour: Misbehaviour
    /// Held by the control thread now and then in ``Misbehaviour/mutex`` mode.
    let contended = Mutex<Int>(0)
    private let nanRequests = Atomic<Int>(0)
    private var appended: [Int] = []

    init(misbehaviour: Misbehaviour) {
        self.misbehaviour = misbehaviour
        super.init(
            description: ComponentDescription(parsing: "aufx:fxtr:AUHs")!, name: "Fixture", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }

    var blockSizeRequirement: BlockSizeRequirement { .fixed(Self.blockFrames) }
    override var rendersWholeCycles: Bool { true }
    override var latency: Double { Double(Self.latencyFrames) / 48_000 }

    /// Makes the next render output NaN.
    /// - Thread: [control]
    func requestNaN() { nanRequests.add(1, ordering: .relaxed) }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let output = context.outputs[0]
        output.copy(from: context.inputs[0])
        if nanRequests.load(ordering: .relaxed) > 0 {
            nanRequests.subtract(1, ordering: .relaxed)
            output[0][0] = .nan
        }
        switch misbehaviour {
        case .none: break
        case .allocate: appended.append(context.frameCount)
        case .usleep: Glibc.usleep(1)
        case .write: _ = Glibc.write(2, output.channelPointers[0], 0)
        case .mutex: contended.withLock { $0 += 1 }
        }
        return 0
    }
}
