import AUCore
import AUJACK
import CJack
import Foundation
import Synchronization

/// A JACK client recording what reaches its `midi_in` with each event's absolute frame (the
/// cycle's `jack_last_frame_time` plus the event's offset), and JACK transport as each
/// cycle saw it. Storage is allocated up front; the process callback only writes into it.
public final class MIDIPortRecorder: @unchecked Sendable {
    /// One event as it arrived.
    public struct Event: Equatable, Sendable, CustomStringConvertible {
        public var frame: Int64
        public var status: UInt8
        public var data1: UInt8
        public var description: String { "\(frame):\(String(status, radix: 16)):\(data1)" }
    }

    /// A cycle's transport: its first frame and JACK transport at it.
    public struct TransportSample: Equatable, Sendable {
        public var frame: Int64
        public var state: TransportState
    }

    public let port: JACKPort
    private var tester: JACKTestClient?
    private let storage: UnsafeMutablePointer<Event>
    private let transportStorage: UnsafeMutablePointer<TransportSample>
    private let scratch = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 512)
    private let capacity: Int
    private let count = Atomic<Int>(0)
    private let transportCount = Atomic<Int>(0)

    /// A client `name` on `serverName` with a `midi_in` port, recording from its start.
    public init(name: String, serverName: String, capacity: Int = 100_000) throws {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        transportStorage = .allocate(capacity: capacity)
        let client = try JACKClient(name: name, serverName: serverName)
        let port = try client.registerPort("midi_in", kind: .midi, direction: .capture)
        self.port = port
        tester = try JACKTestClient(client: client, captureChannels: 0, playbackChannels: 0) { [unowned self] frames, _, _ in
            let start = Int64(jack_last_frame_time(client.handle))
            let read = port.readMIDI(frames: frames, into: scratch, capacity: 512)
            var stored = count.load(ordering: .relaxed)
            for index in 0..<read where stored < self.capacity {
                storage[stored] = Event(frame: start + Int64(scratch[index].offset), status: scratch[index].status, data1: scratch[index].data1)
                stored += 1
            }
            count.store(stored, ordering: .releasing)
            let samples = transportCount.load(ordering: .relaxed)
            if samples < self.capacity {
                transportStorage[samples] = TransportSample(frame: start, state: client.transportState)
                transportCount.store(samples + 1, ordering: .releasing)
            }
        }
        try tester?.start()
    }

    deinit {
        stop()
        storage.deallocate()
        transportStorage.deallocate()
        scratch.deallocate()
    }

    /// The client, for connecting and moving JACK transport.
    public var client: JACKClient { tester!.client }

    /// Stops recording (deactivates and closes the client).
    public func stop() { tester = nil }

    /// What arrived so far.
    public var events: [Event] { Array(UnsafeBufferPointer(start: storage, count: count.load(ordering: .acquiring))) }

    /// Every cycle's transport so far.
    public var transport: [TransportSample] { Array(UnsafeBufferPointer(start: transportStorage, count: transportCount.load(ordering: .acquiring))) }

    /// Waits until `predicate` holds for the events (up to `timeout` seconds).
    public func wait(timeout: Double = 30, until predicate: ([Event]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if predicate(events) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return predicate(events)
    }
}
