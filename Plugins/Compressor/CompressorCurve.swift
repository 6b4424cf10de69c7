/// The compressor's static curve: the output level for an input level, in dB, with a
/// soft knee of `knee` dB centred on the threshold (Giannoulis, Massberg & Reiss,
/// "Digital Dynamic Range Compressor Design", JAES 2012, eq. 4).
/// - Thread: any (a plain value).
struct CompressorCurve {
    var threshold: Float = -20
    var ratio: Float = 4
    var knee: Float = 6

    /// The output level of an input at `level` dB.
    @inline(__always)
    func output(_ level: Float) -> Float {
        let overshoot = level - threshold
        if 2 * overshoot < -knee { return level }
        if knee > 0 && 2 * abs(overshoot) <= knee {
            let x = overshoot + knee / 2
            return level + (1 / ratio - 1) * x * x / (2 * knee)
        }
        return threshold + overshoot / ratio
    }

    /// How many dB the curve takes off at `level` (≥ 0).
    @inline(__always)
    func reduction(_ level: Float) -> Float { level - output(level) }
}
