import AUCore
import AUEngine
import AUJACK
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// A mono pass-through that records its life-cycle calls and whether the JACK client that
/// plays its graph was active at each.
final class LifecycleRecordingUnit: AudioUnit, @unchecked Sendable {
    weak var io: JACKIOUnit?
    let log = Mutex<[String]>([])

    init() {
        super.init(
            description: ComponentDescription(type: ComponentType.effect, subtype: "life", manufacturer: "Test"), name: "Life cycle",
            inputs: [.canonical(channels: 1, name: "Input")], outputs: [.canonical(channels: 1, name: "Output")], parameters: [])
    }

    private func record(_ call: String) {
        let active = io?.client?.isActive ?? false
        log.withLock { $0.append("\(call) client \(active ? "active" : "inactive")") }
    }

    override func allocateRenderResources() throws(AudioUnitError) { record("initialize") }
    override func deallocateRenderResources() { record("uninitialize") }
    override func disposeResources() { record("dispose") }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}

/// However a graph played by the JACK I/O unit ends, the client is deactivated before any
/// unit is uninitialized or disposed (an LV2 unit stops its worker, then frees its plugin,
/// there): JACK never runs a cycle over freed units.
@Suite(.serialized) struct TeardownOrderTests {
    enum Ending: String, CaseIterable, Sendable {
        case dispose, uninitialize, serverLoss
    }

    @Test(arguments: Ending.allCases)
    func theClientIsDeactivatedBeforeAnyUnitIsFreed(ending: Ending) throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        let unit = LifecycleRecordingUnit()
        // The unit first: a graph frees its units in the order they were added.
        let (graph, io) = try JACKIOUnitTests.startGraph(unit, clientName: "teardown", server: server, unitFirst: true)
        unit.io = io
        #expect(io.client?.isActive == true, "graph.start() starts its output unit")
        for _ in 0..<200 where io.cycleCount < 20 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(io.cycleCount >= 20, "JACK ran \(io.cycleCount) cycles")

        switch ending {
        case .dispose:
            graph.dispose()
        case .uninitialize:
            graph.uninitialize()
            graph.dispose()
        case .serverLoss:
            server.stop()
            for _ in 0..<500 where !(io.client?.serverIsGone ?? true) { Thread.sleep(forTimeInterval: 0.01) }
            graph.dispose()
        }
        let log = unit.log.withLock { $0 }
        #expect(log == ["initialize client inactive", "uninitialize client inactive", "dispose client inactive"], "\(log)")
    }
}
