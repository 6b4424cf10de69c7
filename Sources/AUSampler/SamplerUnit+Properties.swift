import AUCore

/// The sampler's settings by name (``PropertyParameterInfo``), what presets write as
/// `"soundbank"`, `"bank"` and `"program"` on its node and the live `load` and `set`
/// commands change: the bank file, and the SoundFont bank and program of the one
/// instrument it plays on every channel.
extension SamplerUnit {
    /// The property identifiers.
    /// - Thread: [any]
    public enum Property {
        public static let soundBank = "soundbank"
        public static let bank = "bank"
        public static let program = "program"
    }

    /// The system's default General MIDI bank (Debian's `fluid-soundfont-gm`, through the
    /// `default-GM.sf2` alternative when it is set), what a preset's `"soundbank": "gm"` names.
    /// - Thread: [any]
    public static var defaultGeneralMIDIBank: String? {
        ["/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/sounds/sf2/FluidR3_GM.sf2"].first { AtomicFile.NodeKind(path: $0) == .regularFile }
    }

    /// The instrument `bank` and `program` name: SoundFont bank 0–127 through Core Audio's
    /// melodic MSB, 128 through its percussion MSB; program 1–128 as General MIDI numbers
    /// them (1: Acoustic Grand Piano; as `auhost midi info` prints programs), MIDI's 0–127.
    static func instrument(bank: Int, program: Int) throws(AudioUnitError) -> SamplerInstrument {
        guard (0...128).contains(bank) else { throw AudioUnitError(.invalidPropertyValue, "bank \(bank) is not a SoundFont bank; expected 0...128 (128: percussion)") }
        guard (1...128).contains(program) else { throw AudioUnitError(.invalidPropertyValue, "program \(program) is not in 1...128 (1 is General MIDI's Acoustic Grand Piano)") }
        let number = UInt8(program - 1)
        return bank == 128
            ? SamplerInstrument(bankMSB: SamplerInstrument.percussionBankMSB, bankLSB: 0, program: number)
            : SamplerInstrument(bankMSB: SamplerInstrument.melodicBankMSB, bankLSB: UInt8(bank), program: number)
    }

    /// `soundbank` (a path), `bank` and `program` (integers; either chooses one instrument on
    /// every channel, neither for General MIDI).
    static let propertyInfos: [PropertyParameterInfo] = [
            PropertyParameterInfo(
                identifier: Property.soundBank, name: "Sound Bank", valueType: .path, namedPaths: defaultGeneralMIDIBank.map { ["gm": $0] } ?? [:]),
            PropertyParameterInfo(identifier: Property.bank, name: "Bank", valueType: .int),
            PropertyParameterInfo(identifier: Property.program, name: "Program", valueType: .int),
    ]

    /// `soundbank` loads the file (keeping the instrument); `bank` and `program` choose the
    /// instrument (a program alone is of bank 0, a bank alone its program 1): the loaded
    /// bank's (or the next one's) instrument plays on every channel.
    func setProperty(_ identifier: String, to value: PropertyParameterValue) throws(AudioUnitError) {
        switch (identifier, value) {
        case (Property.soundBank, .path(let path)), (Property.soundBank, .string(let path)):
            try loadSoundBank(path: path, instrument: try pendingInstrument())
        case (Property.bank, .int(let number)):
            _ = try Self.instrument(bank: number, program: 1)
            pendingBank = number
            try applyPendingInstrument()
        case (Property.program, .int(let number)):
            _ = try Self.instrument(bank: 0, program: number)
            pendingProgram = number
            try applyPendingInstrument()
        case (Property.soundBank, _), (Property.bank, _), (Property.program, _):
            throw AudioUnitError(.invalidPropertyValue, "\(name): \(identifier) takes \(identifier == Property.soundBank ? "a path" : "a whole number"), not \(value)")
        default:
            throw AudioUnitError(.invalidParameter, "\(name) has no property '\(identifier)'; it has soundbank, bank and program")
        }
    }

    /// The loaded bank's path, and the instrument's bank and program.
    func property(_ identifier: String) -> PropertyParameterValue? {
        let instrument = (try? value(of: Self.instrument)) ?? nil
        switch identifier {
        case Property.soundBank:
            guard let path = try? value(of: Self.soundBankURL), !path.isEmpty else { return nil }
            return .path(path)
        case Property.bank: return instrument.flatMap { $0.soundFontBank }.map { .int($0) } ?? pendingBank.map { .int($0) }
        case Property.program: return instrument.map { .int(Int($0.program) + 1) } ?? pendingProgram.map { .int($0) }
        default: return nil
        }
    }

    /// The instrument `bank` and `program` name once either is set.
    private func pendingInstrument() throws(AudioUnitError) -> SamplerInstrument? {
        guard pendingBank != nil || pendingProgram != nil else { return (try? value(of: Self.instrument)) ?? nil }
        return try Self.instrument(bank: pendingBank ?? 0, program: pendingProgram ?? 1)
    }

    /// Plays the pending instrument when a bank is loaded (else it waits for one).
    private func applyPendingInstrument() throws(AudioUnitError) {
        guard let instrument = try pendingInstrument(), let path = try? value(of: Self.soundBankURL), !path.isEmpty else { return }
        try loadInstrument(instrument)
    }
}
