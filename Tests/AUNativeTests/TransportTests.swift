import AUCore
import AUNative
import Foundation
import Testing

/// The host's transport reaches a native unit through the ABI's `auhost_transport`.
@Suite struct TransportTests {
    /// A C unit whose gain is the transport's tempo / 120 (negative when stopped).
    func transportUnit() throws -> AudioUnit {
        let folder = try CLibraryFixtures.makeFolder("transport")
        try CLibraryFixtures.buildGoodUnit(named: "libtransport.so", in: folder, extraDefines: ["GAIN_FROM_TRANSPORT"])
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        return try #require(found.components.first).instantiate()
    }

    @Test(arguments: [(true, 60.0, Float(0.5)), (false, 180.0, Float(-1.5))])
    func theHostTransportReachesTheUnit(isRolling: Bool, tempo: Double, expected: Float) throws {
        let unit = try transportUnit()
        let transport = HostTransport()
        transport.state = TransportState(isRolling: isRolling, beatsPerMinute: tempo)
        unit.hostTransport = transport
        let ones = [[Float](repeating: 1, count: 32)]
        #expect(try NativeHarness.render(unit, input: ones, frames: 32)[0].allSatisfy { $0 == expected })
    }

    @Test func withoutAHostTransportTheUnitSeesARolling120BPMCount() throws {
        let unit = try transportUnit()
        let ones = [[Float](repeating: 1, count: 32)]
        #expect(try NativeHarness.render(unit, input: ones, frames: 32)[0].allSatisfy { $0 == 1 })
    }
}
