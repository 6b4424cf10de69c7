import AUCore
import AUEngine
import Synchronization

/// An instrument that records what MIDI reaches it, at its absolute sample time, and
/// outputs silence (test-only: it appends to an array under a lock on the render thread),
/// so that where and when each event arrives can be checked exactly.
public final class MIDIRecorder: AudioUnit, @unchecked Sendable {
    /// One event as it arrived.
    public struct Received: Equatable, Sendable, CustomStringConvertible {
        public var frame: Int
        public var status: UInt8
        public var note: UInt8
        public init(frame: Int, status: UInt8, note: UInt8) {
            self.frame = frame
            self.status = status
            self.note = note
        }
        public var description: String { "\(frame):\(String(status, radix: 16)):\(note)" }
    }

    private let store = Mutex<[Received]>([])
    /// What arrived, in order.
    public var received: [Received] { store.withLock { $0 } }

    public init(name: String = "Recorder") {
        super.init(
            description: ComponentDescription(type: "aumu", subtype: "mrec", manufacturer: "Test"), name: name, inputs: [],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }

    override public func process(_ context: ProcessContext) -> AudioUnitStatus {
        let start = Int(context.timestamp.sampleTime)
        store.withLock { store in
            for event in context.midiEvents { store.append(Received(frame: start + Int(event.offset), status: event.status, note: event.data1)) }
        }
        context.outputs[0].clear()
        return 0
    }
}
