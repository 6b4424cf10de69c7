import AUTestSupport
import Foundation
import Testing

/// Apple's five device outputs pass `auhost validate` at strictness 10 on a real JACK
/// server (`jackd -d dummy` of the test's own, the default server of the children): the
/// JACK I/O unit without a graph, its input pulled every JACK period.
@Suite(.serialized) struct DeviceOutputValidateLiveTests {
    @Test func everyDeviceOutputPassesAtStrictness10OnJACK() throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        try AppleUnitValidateTests.validateDeviceOutputs(
            device: ["AUHOST_DEVICE": "jack", "JACK_DEFAULT_SERVER": server.name], jobs: 1, arrival: "JACK cycles of 64 frames")
    }
}
