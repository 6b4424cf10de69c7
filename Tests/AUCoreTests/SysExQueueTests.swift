import AUCore
import Testing

/// `SysExQueue`: messages from the control side come first, at once; the render side's wait
/// for their sample time, in order; the bounds refuse what does not fit.
@Suite struct SysExQueueTests {
    static func bytes(_ queue: SysExQueue, _ message: SysExQueue.Message) -> [UInt8] { Array(queue.bytes(of: message)) }

    @Test func controlMessagesComeFirstAndRenderMessagesAtTheirTime() {
        let queue = SysExQueue()
        let early: [UInt8] = [0xF0, 1, 0xF7], late: [UInt8] = [0xF0, 2, 2, 0xF7], control: [UInt8] = [0xF0, 3, 0xF7]
        #expect(early.withUnsafeBufferPointer { queue.sendFromRender($0, atSampleTime: 100) })
        #expect(late.withUnsafeBufferPointer { queue.sendFromRender($0, atSampleTime: 600) })
        #expect(control.withUnsafeBufferPointer { queue.send($0) })
        let first = queue.nextDue(before: 0)
        #expect(first.map { Self.bytes(queue, $0) } == control && first?.sampleTime == .min)
        #expect(queue.nextDue(before: 100) == nil, "due at 100, not before")
        let second = queue.nextDue(before: 101)
        #expect(second.map { Self.bytes(queue, $0) } == early && second?.sampleTime == 100)
        #expect(queue.nextDue(before: 512) == nil, "held until its time")
        #expect(queue.nextDue(before: 1024).map { Self.bytes(queue, $0) } == late)
        #expect(queue.nextDue(before: .max) == nil)
    }

    @Test func boundsRefuseWhatDoesNotFit() {
        let queue = SysExQueue()
        let long = [UInt8](repeating: 0, count: SysExQueue.maximumLength + 1)
        #expect(!long.withUnsafeBufferPointer { queue.send($0) })
        #expect(!long.withUnsafeBufferPointer { queue.sendFromRender($0, atSampleTime: 0) })
        // Each side holds `capacity` messages; every slot keeps its own bytes.
        for index in 0..<SysExQueue.capacity {
            #expect([0xF0, UInt8(index), 0xF7].withUnsafeBufferPointer { queue.sendFromRender($0, atSampleTime: Int64(index)) })
        }
        #expect(![0xF0, 0xF7].withUnsafeBufferPointer { queue.sendFromRender($0, atSampleTime: 0) }, "full")
        for index in 0..<SysExQueue.capacity {
            let message = queue.nextDue(before: .max)
            #expect(message.map { Self.bytes(queue, $0) } == [0xF0, UInt8(index), 0xF7])
            // Refilled as it drains: the slots of messages taken are used again.
            #expect([0xF0, 0x70, 0xF7].withUnsafeBufferPointer { queue.sendFromRender($0, atSampleTime: 1_000) })
        }
    }
}
