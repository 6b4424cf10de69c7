// Small DSP helpers every unit needs: decibel conversion, denormal flushing, smoothing.
// Thread: any (pure functions and plain values).
import Glibc

/// The linear gain of `decibels` (−∞ dB below −144 dB gives 0).
/// - Thread: [any]
@inlinable
public func decibelsToGain(_ decibels: Float) -> Float {
    decibels <= -144 ? 0 : powf(10, decibels / 20)
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
