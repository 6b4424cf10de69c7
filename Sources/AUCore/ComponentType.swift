/// The standard Audio Unit type codes (`kAudioUnitType_*`).
/// - Thread: [any]
public enum ComponentType {
    /// `aufx`: an effect, audio in and audio out.
    public static let effect: FourCharCode = "aufx"
    /// `aumu`: a music device (instrument), MIDI in and audio out.
    public static let musicDevice: FourCharCode = "aumu"
    /// `augn`: a generator, audio out without audio in.
    public static let generator: FourCharCode = "augn"
    /// `aumx`: a mixer, many inputs into fewer outputs.
    public static let mixer: FourCharCode = "aumx"
    /// `auou`: an output (I/O) unit.
    public static let output: FourCharCode = "auou"
    /// `aufc`: a format converter.
    public static let formatConverter: FourCharCode = "aufc"
    /// `aupn`: a panner.
    public static let panner: FourCharCode = "aupn"
    /// `aumf`: a music effect, an effect that also takes MIDI.
    public static let musicEffect: FourCharCode = "aumf"
    /// `aumi`: a MIDI processor, MIDI in and MIDI out.
    public static let midiProcessor: FourCharCode = "aumi"
    /// `auol`: an offline effect.
    public static let offlineEffect: FourCharCode = "auol"

    /// Every standard type with a short human name, in display order.
    public static let all: [(code: FourCharCode, name: String)] = [
        (effect, "effect"), (musicDevice, "music device"), (generator, "generator"),
        (mixer, "mixer"), (output, "output"), (formatConverter, "format converter"),
        (panner, "panner"), (musicEffect, "music effect"), (midiProcessor, "MIDI processor"),
        (offlineEffect, "offline effect"),
    ]

    /// The human name of a type code, or nil when it is not a standard one.
    /// - Thread: [any]
    public static func name(of code: FourCharCode) -> String? {
        all.first { $0.code == code }?.name
    }
}
