import Foundation

/// Conversions between linear amplitude and decibels relative to full scale (1.0).
/// - Thread: [any]
public enum Decibels {
    /// `20·log10(amplitude)`; `-infinity` for silence.
    /// - Thread: [any]
    public static func fromAmplitude(_ amplitude: Double) -> Double {
        amplitude > 0 ? 20 * log10(amplitude) : -.infinity
    }

    /// `10^(decibels / 20)`.
    /// - Thread: [any]
    public static func toAmplitude(_ decibels: Double) -> Double {
        pow(10, decibels / 20)
    }

    /// `-3.01`, `-inf`: two decimals, for reports.
    /// - Thread: [any]
    public static func format(_ decibels: Double) -> String {
        guard decibels.isFinite else { return decibels < 0 ? "-inf" : "+inf" }
        return String(format: "%.2f", decibels)
    }
}
