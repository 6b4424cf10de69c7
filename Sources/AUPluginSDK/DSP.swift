// Small DSP helpers every unit needs: decibel conversion, denormal flushing, smoothing, scaling.
// Thread: any (pure functions and plain values).
import CAUPluginDSP
import Glibc

/// The linear gain of `decibels` (−∞ dB below −144 dB gives 0).
/// - Thread: [any]
@inlinable
public func decibelsToGain(_ decibels: Float) -> Float {
    decibels <= -144 ? 0 : powf(10, decibels / 20)
}

/// Writes `input` times `gain` into `output`, as many samples as the shorter has (vDSP_vsmul's
/// job); `output` may be `input`. Eight samples an instruction where the processor has AVX2.
/// Returns whether every sample written is finite (checked in the same pass): a unit that
/// wrote its whole output so can tell the host (``AudioBlock/reportOutputsFinite()``).
/// - Thread: [any]; no allocation.
@inlinable @discardableResult
public func scale(_ input: UnsafeMutableBufferPointer<Float>, by gain: Float, into output: UnsafeMutableBufferPointer<Float>) -> Bool {
    guard let from = input.baseAddress, let to = output.baseAddress else { return true }
    return auhost_dsp_scale(from, gain, to, min(input.count, output.count)) != 0
}

/// Replaces a value too small to matter (a denormal on its way) by zero. Use it on
/// every feedback path: filter states, delay feedback, envelopes.
/// - Thread: [any]
@inlinable
public func flushDenormal(_ x: Float) -> Float { abs(x) < 1e-20 ? 0 : x }

/// The same for Double states.
/// - Thread: [any]
@inlinable
public func flushDenormal(_ x: Double) -> Double { abs(x) < 1e-30 ? 0 : x }

/// A one-pole smoother: moves towards its target by a fixed fraction per frame, reaching
/// about 63 % in `time` seconds. A time of 0 jumps at once.
/// - Thread: [render] (values set up on control).
public struct Smoother: Sendable {
    public var current: Float
    public var target: Float
    @usableFromInline var coefficient: Float = 1

    /// - Thread: [render]
    public init(value: Float) {
        current = value
        target = value
    }

    /// Sets the smoothing time for a sample rate.
    /// - Thread: [render]
    public mutating func configure(time: Double, sampleRate: Double) {
        coefficient = time <= 0 ? 1 : Float(1 - exp(-1 / (time * sampleRate)))
    }

    /// Jumps to the target (after a reset).
    /// - Thread: [render]
    public mutating func snap() { current = target }

    /// The next frame's value.
    /// - Thread: [render]
    @inlinable
    public mutating func next() -> Float {
        current += (target - current) * coefficient
        if abs(target - current) < 1e-6 { current = target }
        return current
    }

    /// True while the value still moves.
    /// - Thread: [render]
    @inlinable public var isMoving: Bool { current != target }
}
