import AUCore
import Synchronization
import Testing

/// Collects what listeners receive, and whether any call came on the render thread.
final class ListenerLog: Sendable {
    private let state = Mutex<(properties: [PropertyChange], parameters: [(ParameterAddress, Float)], onRenderThread: Int)>(([], [], 0))

    func property(_ change: PropertyChange) {
        let render = RenderThread.isCurrent
        state.withLock { $0.properties.append(change); if render { $0.onRenderThread += 1 } }
    }
    func parameter(_ address: ParameterAddress, _ value: Float) {
        let render = RenderThread.isCurrent
        state.withLock { $0.parameters.append((address, value)); if render { $0.onRenderThread += 1 } }
    }
    var properties: [PropertyChange] { state.withLock { $0.properties } }
    var parameters: [(ParameterAddress, Float)] { state.withLock { $0.parameters } }
    var onRenderThread: Int { state.withLock { $0.onRenderThread } }
}

@Suite struct ListenerTests {
    @Test func propertyListenersFireOncePerChangeAndCanBeRemoved() throws {
        let unit = TestGainUnit()
        let log = ListenerLog()
        let token = unit.addPropertyListener(.maximumFramesPerSlice) { log.property($0) }
        unit.addPropertyListener(.streamFormat, scope: .output) { log.property($0) }
        try unit.setValue(512, for: .maximumFramesPerSlice)
        try unit.setValue(.canonical(sampleRate: 48_000, channels: 2), for: .streamFormat, scope: .input)  // not .output
        try unit.setValue(.canonical(sampleRate: 44_100, channels: 2), for: .streamFormat, scope: .output)
        #expect(log.properties == [
            PropertyChange(id: .maximumFramesPerSlice, scope: .global, element: 0),
            PropertyChange(id: .streamFormat, scope: .output, element: 0),
        ])
        #expect(unit.removeListener(token))
        #expect(!unit.removeListener(token))
        try unit.setValue(256, for: .maximumFramesPerSlice)
        #expect(log.properties.count == 2)
    }

    @Test func aFailedSetCallsNoListener() throws {
        let unit = TestGainUnit()
        let log = ListenerLog()
        unit.addPropertyListener(.maximumFramesPerSlice) { log.property($0) }
        #expect(throws: AudioUnitError.self) { try unit.setValue(0, for: .maximumFramesPerSlice) }
        #expect(log.properties.isEmpty)
    }

    @Test func changesMadeOnTheRenderThreadReachListenersOffIt() throws {
        let unit = TestGainUnit()
        let log = ListenerLog()
        unit.addParameterListener { log.parameter($0, $1) }
        unit.addPropertyListener(.lastRenderError) { log.property($0) }
        try unit.initialize()
        try unit.setParameter(TestGainUnit.gain, value: 2, bufferOffset: 5)
        #expect(log.parameters.isEmpty)  // scheduled: not applied yet
        _ = renderOnes(unit, frames: 16)
        #expect(log.parameters.isEmpty)  // applied on the render thread: not delivered there
        // The cycle is split at frame 5, where the gain becomes 2; the meter read 1, then 2.
        // Input parameters are delivered change by change; a meter once, with its latest value.
        #expect(unit.dispatchPendingNotifications() == 2)
        let delivered = log.parameters
        #expect(delivered.map(\.0.id) == [TestGainUnit.gain, TestGainUnit.peak])
        #expect(delivered.map(\.1) == [2, 2])
        #expect(log.onRenderThread == 0)
        #expect(unit.dispatchPendingNotifications() == 0)
        _ = renderOnes(unit, frames: 16, sampleTime: 16)  // same peak: no new notification
        #expect(unit.dispatchPendingNotifications() == 0)
        try unit.setParameter(TestGainUnit.gain, value: 3)
        _ = renderOnes(unit, frames: 16, sampleTime: 32)
        unit.dispatchPendingNotifications()
        #expect(log.parameters.dropFirst(2).map(\.0.id) == [TestGainUnit.gain, TestGainUnit.peak])
        #expect(log.parameters.dropFirst(2).map(\.1) == [3, 3])
    }

    @Test func immediateParameterChangesNotifyOnce() throws {
        let unit = TestGainUnit()
        let log = ListenerLog()
        unit.addParameterListener { log.parameter($0, $1) }
        try unit.setParameter(TestGainUnit.gain, value: 0.5)
        #expect(log.parameters.count == 1)
        #expect(log.parameters.first?.1 == 0.5)
    }
}
