import AUCore

/// One instrument of a sound bank, chosen as Core Audio's `AUSamplerInstrumentData` chooses
/// it: a bank MSB and LSB and a program. With ``melodicBankMSB`` (`0x79`) the LSB is the
/// SoundFont bank (0 is General MIDI's, 8 and 16 GS variations); ``percussionBankMSB``
/// (`0x78`) is the percussion bank (SoundFont bank 128), whose programs are drum kits. Any
/// other MSB is the SoundFont bank itself, as FluidSynth's default (GS) bank select reads
/// controller 0, with an LSB of 0.
/// - Thread: [any]
public struct SamplerInstrument: Hashable, Sendable, Codable, CustomStringConvertible {
    public var bankMSB: UInt8
    public var bankLSB: UInt8
    public var program: UInt8

    /// `kAUSampler_DefaultMelodicBankMSB`.
    public static let melodicBankMSB: UInt8 = 0x79
    /// `kAUSampler_DefaultPercussionBankMSB`.
    public static let percussionBankMSB: UInt8 = 0x78
    /// The SoundFont bank of percussion kits.
    static let percussionSoundFontBank = 128

    /// - Thread: [any]
    public init(bankMSB: UInt8, bankLSB: UInt8, program: UInt8) {
        self.bankMSB = bankMSB
        self.bankLSB = bankLSB
        self.program = program
    }

    /// The SoundFont bank number the MSB and LSB name, nil when they name none (an MSB above
    /// 127, a program above 127, or an LSB with an MSB that is neither of Core Audio's).
    /// - Thread: [any]
    public var soundFontBank: Int? {
        guard bankMSB < 128, bankLSB < 128, program < 128 else { return nil }
        switch bankMSB {
        case Self.percussionBankMSB: return Self.percussionSoundFontBank
        case Self.melodicBankMSB: return Int(bankLSB)
        default: return bankLSB == 0 ? Int(bankMSB) : nil
        }
    }

    /// - Thread: [any]
    public var description: String {
        let bank = soundFontBank.map { "SoundFont bank \($0)" } ?? "no SoundFont bank"
        return "bank MSB \(bankMSB) LSB \(bankLSB) program \(program) (\(bank))"
    }
}
