import AUCore
import Foundation
import Testing
@testable import AULV2

/// `buf-size:nominalBlockLength` is the block length a plugin will usually get: a live host's
/// period (``LV2Unit/nominalBlockLength``), else MaximumFramesPerSlice. Guitarix's convolvers
/// prepare for it and, on a run() of another length, rebuild their FFTW plans in their
/// worker while run() goes on: told 4096 under a 64-frame JACK period, GxAmplifier-X then
/// GxCabinet crashed in libfftw3f about once in 40 starts (GuitarixLiveTests).
@Suite struct NominalBlockLengthTests {
    /// What the fixture was told, read from its output after a few 64-frame cycles.
    static func nominalLengthSeen(setting nominal: Int?) throws -> Set<Float> {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let component = try FailureModeTests.component("urn:auhost:fixture:nominal-block", in: FailureModeTests.components(fixtures))
        let unit = try #require(try component.instantiate() as? LV2Unit)
        unit.renderMode = .offline
        unit.nominalBlockLength = nominal

        let graph = try LV2TestSupport.graph(around: unit, maximumFrames: 1024)
        defer { graph.dispose() }
        let input = OwnedAudioBuffers(channels: 1, capacity: 64)
        let rendered = OwnedAudioBuffers(channels: 1, capacity: 64)
        var seen: Set<Float> = []
        for index in 0..<4 {
            #expect(graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: Double(index * 64)), input: input.buffers(), output: rendered.buffers()) == 0)
            seen.formUnion(rendered.buffers()[0])
        }
        return seen
    }

    @Test func theLiveHostsPeriodIsTheNominalBlockLength() throws {
        #expect(try Self.nominalLengthSeen(setting: 64) == [64])
    }

    @Test func withoutAPeriodTheNominalBlockLengthIsTheMaximum() throws {
        #expect(try Self.nominalLengthSeen(setting: nil) == [1024])
    }

    @Test func aPeriodAboveTheMaximumIsHeldToTheMaximum() throws {
        #expect(try Self.nominalLengthSeen(setting: 8192) == [1024])
    }
}
