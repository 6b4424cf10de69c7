import AUCore
import Foundation
import Testing
@testable import AULV2

@Suite struct InstrumentTests {
    /// The pitch of a signal by autocorrelation: the shortest lag whose correlation is
    /// within 10 % of the best one between 50 Hz and 2 kHz (avoids octave errors).
    static func autocorrelationPitch(_ samples: ArraySlice<Float>, sampleRate: Double) -> Double {
        let x = Array(samples)
        let minimumLag = Int(sampleRate / 2_000), maximumLag = Int(sampleRate / 50)
        var scores: [Double] = []
        for lag in minimumLag...maximumLag {
            var sum = 0.0
            for index in 0..<(x.count - maximumLag) { sum += Double(x[index]) * Double(x[index + lag]) }
            scores.append(sum)
        }
        let best = scores.max() ?? 0
        // The first peak that comes within 10 % of the best.
        for index in 1..<(scores.count - 1) where scores[index] >= 0.9 * best && scores[index] >= scores[index - 1] && scores[index] >= scores[index + 1] {
            // Parabolic interpolation around the peak.
            let (a, b, c) = (scores[index - 1], scores[index], scores[index + 1])
            let shift = 0.5 * (a - c) / (a - 2 * b + c)
            return sampleRate / (Double(index + minimumLag) + shift)
        }
        return 0
    }

    /// mda Piano and mda EPiano play MIDI note-ons at the right pitch: note 69 → 440 Hz and
    /// note 57 → 220 Hz within 1 % (stretched partials and the default random
    /// detuning stay well inside that).
    @Test(arguments: ["http://drobilla.net/plugins/mda/Piano", "http://drobilla.net/plugins/mda/EPiano"])
    func playsNotesAtTheRightPitch(uri: String) throws {
        let unit = try LV2TestSupport.unit(uri)
        unit.renderMode = .offline
        #expect(unit.componentDescription.type == ComponentType.musicDevice)
        try unit.initialize()
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 512)
        for (note, frequency) in [(UInt8(69), 440.0), (57, 220.0)] {
            let start = 100
            let output = try renderer.render(
                frameCount: 24_000, midi: [.noteOn(note, velocity: 100, offset: Int32(start)), .noteOff(note, offset: 20_000)])
            let left = output[0][0]
            #expect(left[0..<start].allSatisfy { $0 == 0 } || left[0..<start].allSatisfy { abs($0) < 1e-3 })
            let peak = left.map(abs).max() ?? 0
            #expect(peak > 0.01, "silent output for note \(note)")
            let measured = Self.autocorrelationPitch(left[4_800..<14_400], sampleRate: 48_000)
            #expect(abs(measured - frequency) / frequency < 0.01, "note \(note): measured \(measured) Hz, expected \(frequency)")
            _ = try renderer.render(frameCount: 48_000)  // let it ring out before the next note
        }
    }
}
