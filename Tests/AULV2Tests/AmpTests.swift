import AUCore
import Foundation
import Testing
@testable import AULV2

@Suite struct AmpTests {
    static let uri = "http://plugin.org.uk/swh-plugins/amp"

    /// swh amp multiplies by 10^(gain/20): at +6 dB a 0.25 sine comes out 1.99526… times
    /// larger. Tolerance 1e-5 relative: the plugin computes the factor in single precision.
    @Test(arguments: [-12.0 as Float, 0, 6])
    func scalesASineByTheGain(gain: Float) throws {
        let unit = try LV2TestSupport.unit(Self.uri)
        unit.renderMode = .offline
        #expect(unit.formats(.input).map(\.channelsPerFrame) == [1])
        #expect(unit.formats(.output).map(\.channelsPerFrame) == [1])
        let gainID = try #require(unit.parameters.infos.first { $0.identifier == "gain" }).id
        try unit.setParameter(gainID, value: gain)
        try unit.initialize()
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 256)
        let output = try renderer.render(frameCount: 4800) { _, _, frame in LV2TestSupport.sine(frame, amplitude: 0.25) }
        let factor = pow(10, gain / 20)
        let expected = (0..<4800).map { LV2TestSupport.sine($0, amplitude: 0.25) * factor }
        #expect(LV2TestSupport.maximumDifference(output[0][0], expected) <= 1e-5 * factor)
        #expect(output[0][0].count == 4800)
    }
}
