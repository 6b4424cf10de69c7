import AUCore
import AUNative
import Foundation
import Testing

/// Each unit against its analytic expectation, with the tolerance stated.
@Suite struct UnitDSPTests {
    // MARK: Gain

    @Test(arguments: [-24.0, -6.0, 0.0, 6.0, 12.0] as [Float])
    func gainIsExactInDecibels(_ decibels: Float) throws {
        let unit = try NativeHarness.unit("aufx:gain:AUHs")
        try NativeHarness.set(unit, "smoothing", 0)
        try NativeHarness.set(unit, "gain", decibels)
        let input = NativeHarness.sine(1000, frames: 4800)
        let output = try NativeHarness.render(unit, input: [input], frames: 4800)
        let measured = NativeHarness.rmsDecibels(output[0][...]) - NativeHarness.rmsDecibels(input[...])
        #expect(abs(measured - Double(decibels)) < 0.001, "measured \(measured) dB")
    }

    @Test func gainChangesAreSmoothed() throws {
        let unit = try NativeHarness.unit("aufx:gain:AUHs")
        try NativeHarness.set(unit, "smoothing", 10)
        let output = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 4800)], frames: 4800) { start in
            if start == 512 { try NativeHarness.set(unit, "gain", -20) }
        }
        let channel = output[0]
        // No step larger than a 10 ms one-pole allows (1/480 of the 0.9 change), monotonic down to 0.1.
        let steps = zip(channel.dropFirst(), channel).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 <= 1e-7 && $0 > -0.9 / 400 })
        #expect(abs((channel.last ?? .nan) - 0.1) < 2e-4)
    }

    // MARK: Delay

    @Test(arguments: [(10.0, 480), (1.0, 48), (250.0, 12_000)] as [(Float, Int)])
    func delayTimeIsExactInSamples(_ milliseconds: Float, _ samples: Int) throws {
        let unit = try NativeHarness.unit("aufx:dely:AUHs")
        try NativeHarness.set(unit, "time", milliseconds)
        try NativeHarness.set(unit, "feedback", 0)
        try NativeHarness.set(unit, "mix", 100)
        var impulse = [Float](repeating: 0, count: samples + 1000)
        impulse[0] = 1
        let output = try NativeHarness.render(unit, input: [impulse], frames: impulse.count)
        for channel in output {
            #expect(channel[samples] == 1)
            #expect(channel.enumerated().allSatisfy { $0.offset == samples || $0.element == 0 })
        }
    }

    @Test func delayFeedbackRepeatsAtTheFeedbackGain() throws {
        let unit = try NativeHarness.unit("aufx:dely:AUHs")
        try NativeHarness.set(unit, "time", 10)
        try NativeHarness.set(unit, "feedback", 50)
        try NativeHarness.set(unit, "mix", 100)
        var impulse = [Float](repeating: 0, count: 2000)
        impulse[0] = 1
        let output = try NativeHarness.render(unit, input: [impulse], frames: 2000)[0]
        #expect(output[480] == 1)
        #expect(abs(output[960] - 0.5) < 1e-6)
        #expect(abs(output[1440] - 0.25) < 1e-6)
    }

    // MARK: Parametric EQ

    /// Magnitude at a band's centre: a peak gives its gain; an RBJ shelf gives half its gain.
    @Test(arguments: [
        (0, 1000, 6, 1, 6), (0, 2000, -9, 2, -9), (0, 300, 18, 0.5, 18), (1, 500, 12, 0.707, 6), (2, 4000, -10, 0.707, -5),
    ] as [(Float, Float, Float, Float, Double)])
    func eqMagnitudeAtTheCentreMatchesTheDesign(_ shape: Float, _ frequency: Float, _ gain: Float, _ q: Float, _ expected: Double) throws {
        let unit = try NativeHarness.unit("aufx:peq :AUHs")
        try NativeHarness.set(unit, "band2_shape", shape)
        try NativeHarness.set(unit, "band2_frequency", frequency)
        try NativeHarness.set(unit, "band2_gain", gain)
        try NativeHarness.set(unit, "band2_q", q)
        let frames = 48_000
        let input = NativeHarness.sine(Double(frequency), frames: frames, amplitude: 0.1)
        let output = try NativeHarness.render(unit, input: [input], frames: frames, blockSize: 512)
        // The second half holds whole periods of every test frequency (24 000 samples).
        let measured = NativeHarness.rmsDecibels(output[0][24_000...]) - NativeHarness.rmsDecibels(input[24_000...])
        #expect(abs(measured - expected) < 0.1, "measured \(measured) dB, designed \(expected) dB")
    }

    @Test func eqLeavesOtherFrequenciesAloneAndBandsAtZeroAreTransparent() throws {
        let unit = try NativeHarness.unit("aufx:peq :AUHs")
        let input = NativeHarness.sine(1000, frames: 4800)
        let output = try NativeHarness.render(unit, input: [input], frames: 4800)
        #expect(output[0] == input)
        try NativeHarness.set(unit, "band2_frequency", 100)
        try NativeHarness.set(unit, "band2_gain", 12)
        try NativeHarness.set(unit, "band2_q", 4)
        let far = NativeHarness.sine(10_000, frames: 48_000, amplitude: 0.1)
        let filtered = try NativeHarness.render(unit, input: [far], frames: 48_000)
        #expect(abs(NativeHarness.rmsDecibels(filtered[0][24_000...]) - NativeHarness.rmsDecibels(far[24_000...])) < 0.05)
    }

    // MARK: Compressor

    /// The static curve with threshold −20 dB, ratio 4, knee 6 dB, on DC levels (a peak
    /// detector sees them exactly): below the knee, in it, and above it.
    @Test(arguments: [(-40.0, -40.0), (-23.0, -23.0), (-20.0, -20.0 - 0.75 * 9 / 12), (-17.0, -17.0 - 0.75 * 36 / 12), (-10.0, -17.5), (0.0, -15.0)] as [(Double, Double)])
    func compressorFollowsItsStaticCurve(_ input: Double, _ expected: Double) throws {
        let unit = try NativeHarness.unit("aufx:comp:AUHs")
        let level = Float(pow(10, input / 20))
        let output = try NativeHarness.render(unit, input: [[Float](repeating: level, count: 48_000)], frames: 48_000, blockSize: 512)
        let measured = 20 * log10(Double(output[0].last ?? .nan))
        #expect(abs(measured - expected) < 0.05, "in \(input) dB → \(measured) dB, expected \(expected) dB")
        #expect(abs(Double(try NativeHarness.value(unit, "gain_reduction")) - (input - expected)) < 0.05)
    }

    @Test func compressorMakeupAndRMSDetector() throws {
        let unit = try NativeHarness.unit("aufx:comp:AUHs")
        try NativeHarness.set(unit, "makeup", 6)
        try NativeHarness.set(unit, "detector", 1)
        try NativeHarness.set(unit, "knee", 0)
        // A sine of peak 1 has an RMS level of −3.01 dB: 16.99 dB over, 12.74 dB off, +6 dB back.
        let input = NativeHarness.sine(1000, frames: 48_000, amplitude: 1)
        let output = try NativeHarness.render(unit, input: [input], frames: 48_000, blockSize: 512)
        let change = NativeHarness.rmsDecibels(output[0][43_200...]) - NativeHarness.rmsDecibels(input[43_200...])
        #expect(abs(change - (6 - 16.99 * 0.75)) < 0.2, "change \(change) dB")
    }

    // MARK: Reverb

    @Test func reverbTailDecaysAndMixZeroIsDry() throws {
        let unit = try NativeHarness.unit("aufx:rvrb:AUHs")
        try NativeHarness.set(unit, "mix", 100)
        var impulse = [Float](repeating: 0, count: 96_000)
        impulse[0] = 1
        let output = try NativeHarness.render(unit, input: [impulse], frames: impulse.count, blockSize: 512)
        func energy(_ range: Range<Int>) -> Double { output[0][range].reduce(0) { $0 + Double($1) * Double($1) } }
        #expect(output.allSatisfy { $0.allSatisfy(\.isFinite) })
        // A reverberant tail: a diffuse decay, not an echo or the impulse passed on. 100 ms
        // to 500 ms after the impulse the output is neither silent nor a few clicks: most
        // 10 ms windows there carry energy.
        #expect(energy(4_800..<24_000) > 1e-3, "energy 100-500 ms after the impulse: \(energy(4_800..<24_000))")
        let windows = stride(from: 4_800, to: 24_000, by: 480).map { energy($0..<($0 + 480)) }
        #expect(windows.filter { $0 > 1e-7 }.count >= windows.count * 9 / 10, "10 ms windows with energy: \(windows)")
        #expect(energy(4_800..<28_800) > 100 * energy(72_000..<96_000))
        #expect(energy(72_000..<96_000) < 1e-3)
        #expect(output[0] != output[1], "the two sides are decorrelated")
        let tail = try unit.value(of: .tailTime)
        #expect(tail > 0.5 && tail < 20)

        let dry = try NativeHarness.unit("aufx:rvrb:AUHs")
        try NativeHarness.set(dry, "mix", 0)
        let input = NativeHarness.sine(440, frames: 4800)
        #expect(try NativeHarness.render(dry, input: [input], frames: 4800)[0] == input)
    }

    // MARK: Tone generator

    @Test(arguments: [(0, 1000.0), (0, 441.0), (1, 220.0), (2, 3000.0), (3, 100.0)] as [(Float, Double)])
    func toneHasItsPitch(_ waveform: Float, _ frequency: Double) throws {
        let unit = try NativeHarness.unit("augn:tone:AUHs")
        try NativeHarness.set(unit, "waveform", waveform)
        try NativeHarness.set(unit, "frequency", Float(frequency))
        let output = try NativeHarness.render(unit, frames: 48_000, blockSize: 512)
        let measured = NativeHarness.zeroCrossingFrequency(output[0][4800...])
        #expect(abs(measured - frequency) < 0.01 * max(1, frequency / 1000), "measured \(measured) Hz")
        #expect(output[0] == output[1])
    }

    @Test func toneLevelIsInDBFS() throws {
        let unit = try NativeHarness.unit("augn:tone:AUHs")
        try NativeHarness.set(unit, "level", -6)
        try NativeHarness.set(unit, "frequency", 1000)
        let output = try NativeHarness.render(unit, frames: 4800)
        let peak = output[0][480...].map(abs).max() ?? .nan
        #expect(abs(Double(peak) - pow(10, -6.0 / 20)) < 1e-3)
    }

    @Test func noiseIsNotPeriodicAndStaysInRange() throws {
        let unit = try NativeHarness.unit("augn:tone:AUHs")
        try NativeHarness.set(unit, "waveform", 4)
        try NativeHarness.set(unit, "level", 0)
        let output = try NativeHarness.render(unit, frames: 48_000)[0]
        #expect(output.allSatisfy { abs($0) <= 1 })
        let mean = output.reduce(0.0) { $0 + Double($1) } / Double(output.count)
        #expect(abs(mean) < 0.02)
        #expect(abs(NativeHarness.rmsDecibels(output[...]) - 20 * log10(1 / 3.0.squareRoot())) < 0.2)
        // Not periodic: over 8192 samples the normalised autocorrelation at every lag up to
        // 4096 stays near 0 (a generator repeating a table or a short LFSR cycle would
        // reach 1 at its period).
        let window = output[0..<8192].map(Double.init)
        let power = window.reduce(0) { $0 + $1 * $1 }
        var worst = (lag: 0, correlation: 0.0)
        window.withUnsafeBufferPointer { samples in
            for lag in 1...4096 {
                var sum = 0.0
                for index in 0..<(8192 - lag) { sum += samples[index] * samples[index + lag] }
                let correlation = abs(sum / power)
                if correlation > worst.correlation { worst = (lag, correlation) }
            }
        }
        #expect(worst.correlation < 0.1, "autocorrelation \(worst.correlation) at lag \(worst.lag)")
    }

    // MARK: Synth

    @Test(arguments: [(69, 440.0), (81, 880.0), (60, 261.6256)] as [(UInt8, Double)])
    func synthNotesHaveTheirPitch(_ note: UInt8, _ frequency: Double) throws {
        let unit = try NativeHarness.unit("aumu:synt:AUHs")
        try NativeHarness.set(unit, "waveform", 0)
        let output = try NativeHarness.render(unit, frames: 48_000, blockSize: 512) { start in
            if start == 0 { try unit.sendMIDIEvent(.noteOn(note, velocity: 100)) }
        }
        let measured = NativeHarness.zeroCrossingFrequency(output[0][9600...])
        #expect(abs(measured - frequency) < 0.01, "note \(note): measured \(measured) Hz")
    }

    @Test func synthVelocityScalesAndNoteOffReleasesToSilence() throws {
        func render(velocity: UInt8) throws -> [Float] {
            let unit = try NativeHarness.unit("aumu:synt:AUHs")
            try NativeHarness.set(unit, "waveform", 0)
            try NativeHarness.set(unit, "release", 50)
            return try NativeHarness.render(unit, frames: 48_000, blockSize: 512) { start in
                if start == 0 { try unit.sendMIDIEvent(.noteOn(69, velocity: velocity)) }
                if start == 24_064 { try unit.sendMIDIEvent(.noteOff(69)) }
            }[0]
        }
        let loud = try render(velocity: 127), soft = try render(velocity: 64)
        let ratio = NativeHarness.rmsDecibels(soft[12_000..<24_000]) - NativeHarness.rmsDecibels(loud[12_000..<24_000])
        #expect(abs(ratio - 20 * log10(64.0 / 127)) < 0.01)
        #expect(loud[40_000...].allSatisfy { $0 == 0 }, "silent after the release")
    }

    @Test func synthIsPolyphonic() throws {
        let unit = try NativeHarness.unit("aumu:synt:AUHs")
        try NativeHarness.set(unit, "waveform", 0)
        try NativeHarness.set(unit, "level", -20)
        let chord: [UInt8] = [60, 64, 67]
        let output = try NativeHarness.render(unit, frames: 24_000, blockSize: 512) { start in
            if start == 0 { for note in chord { try unit.sendMIDIEvent(.noteOn(note, velocity: 100)) } }
        }[0]
        let single = try NativeHarness.unit("aumu:synt:AUHs")
        try NativeHarness.set(single, "waveform", 0)
        try NativeHarness.set(single, "level", -20)
        let one = try NativeHarness.render(single, frames: 24_000, blockSize: 512) { start in
            if start == 0 { try single.sendMIDIEvent(.noteOn(60, velocity: 100)) }
        }[0]
        // Three uncorrelated sines have three times the power of one: +4.77 dB.
        let difference = NativeHarness.rmsDecibels(output[12_000...]) - NativeHarness.rmsDecibels(one[12_000...])
        #expect(abs(difference - 10 * log10(3.0)) < 0.3, "difference \(difference) dB")
    }
}
