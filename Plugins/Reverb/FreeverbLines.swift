import AUPluginSDK

/// A Freeverb lowpass-feedback comb filter over a slice of preallocated memory
/// (Jezar at Dreampoint's public-domain model).
/// - Thread: render.
struct CombFilter {
    let buffer: UnsafeMutablePointer<Float>
    let length: Int
    var index = 0
    var store: Float = 0

    @inline(__always)
    mutating func process(_ input: Float, feedback: Float, damp: Float) -> Float {
        let output = buffer[index]
        store = flushDenormal(output * (1 - damp) + store * damp)
        buffer[index] = flushDenormal(input + store * feedback)
        index += 1
        if index == length { index = 0 }
        return output
    }

    mutating func clear() {
        buffer.update(repeating: 0, count: length)
        store = 0
        index = 0
    }
}

/// A Freeverb Schroeder allpass (feedback 0.5) over preallocated memory.
/// - Thread: render.
struct AllpassFilter {
    let buffer: UnsafeMutablePointer<Float>
    let length: Int
    var index = 0

    @inline(__always)
    mutating func process(_ input: Float) -> Float {
        let delayed = buffer[index]
        buffer[index] = flushDenormal(input + delayed * 0.5)
        index += 1
        if index == length { index = 0 }
        return delayed - input
    }

    mutating func clear() {
        buffer.update(repeating: 0, count: length)
        index = 0
    }
}
