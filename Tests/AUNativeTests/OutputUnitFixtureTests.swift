import AUCore
import AUEngine
import AUValidate
import Foundation
import Synchronization
import Testing

/// A device output written for the `output-device` test: a thread that, while started,
/// renders the unit (pulling its input) in periods of 256 frames, as the paced device does;
/// built with one breakage it breaks one rule of output units.
final class OutputFixtureUnit: GenericOutputUnit, AudioOutputUnit, @unchecked Sendable {
    enum Breakage: String, CaseIterable, Sendable {
        /// `start` succeeds but the device never pulls the input.
        case startNeverPulls
        /// `stop` returns with the device still pulling (uninitialize stops it).
        case stopKeepsPulling
    }

    static let description = ComponentDescription(type: ComponentType.output, subtype: "vout", manufacturer: "Test")
    let breakage: Breakage?
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(breakage: Breakage?) {
        self.breakage = breakage
        super.init(description: Self.description, name: "Output Fixture", application: "device")
    }

    func start() throws(AudioUnitError) {
        guard state == .initialized else { throw AudioUnitError(.uninitialized, "start before initialize") }
        guard breakage != .startNeverPulls, !running.exchange(true, ordering: .relaxed) else { return }
        let buffers = OwnedAudioBuffers(channels: formats(.input)[0].channelsPerFrame, capacity: 256)
        Thread { [unowned self] in
            var sampleTime = 0.0
            while running.load(ordering: .relaxed) {
                var flags = RenderFlags()
                _ = render(flags: &flags, timestamp: RenderTimestamp(sampleTime: sampleTime), outputBus: 0, buffers: buffers.buffers(frameCount: 256))
                sampleTime += 256
                usleep(2_000)
            }
            finished.signal()
        }.start()
    }

    func stop() {
        if breakage != .stopKeepsPulling { halt() }
    }

    private func halt() {
        if running.exchange(false, ordering: .relaxed) { finished.wait() }
    }

    override func deallocateRenderResources() { halt() }

    /// The fixture as a component.
    static func component(_ breakage: Breakage?) -> Component {
        Component(
            description: description, name: "Output Fixture", manufacturerName: "Test", version: "1.0.0", format: .builtin,
            identifier: "test:output-fixture", category: "Output", factory: { () throws(AudioUnitError) -> AudioUnit in OutputFixtureUnit(breakage: breakage) })
    }
}

/// The `output-device` test against a device output that keeps the rules and ones that
/// break one: every validator test runs in this process on the fixture (but
/// `render-allocations`, whose seccomp filter belongs in a child); the good one passes all,
/// each broken one fails `output-device` alone.
@Suite struct OutputUnitFixtureTests {
    static func failures(_ breakage: OutputFixtureUnit.Breakage?) -> [String: String] {
        let settings = ValidationSettings(strictness: 10, seed: 7)
        var failed: [String: String] = [:]
        for test in ValidationCatalogue.tests where test.name != "render-allocations" {
            let result = test.run(on: OutputFixtureUnit.component(breakage), settings: settings)
            if result.status == .fail { failed[test.name] = result.message }
        }
        return failed
    }

    @Test func aDeviceOutputThatKeepsTheRulesPassesEveryTest() {
        #expect(Self.failures(nil) == [:])
    }

    @Test(arguments: OutputFixtureUnit.Breakage.allCases)
    func aBrokenDeviceOutputFailsOutputDeviceAlone(_ breakage: OutputFixtureUnit.Breakage) {
        let failed = Self.failures(breakage)
        #expect(Array(failed.keys) == ["output-device"], "\(breakage): \(failed)")
    }
}
