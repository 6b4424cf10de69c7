import Foundation

/// A SoundFont the tests write themselves, whose pitch is exact: one preset (bank 0,
/// program 0) playing one looped sample, a sine of exactly 440 Hz at 48 kHz (11 cycles in
/// 1,200 frames) with root key 69 (A4), so that every other key plays at exactly its
/// equal-tempered frequency, as far as the synthesizer transposes exactly. As SF2 the sample
/// is 16-bit PCM; as SF3 it is the Ogg Vorbis stream given (`compressedSample`).
enum TestSoundFont {
    static let sampleRate = 48_000
    static let frequency = 440.0
    static let rootKey: UInt8 = 69
    /// One loop: 11 cycles of the sine in 1,200 frames.
    static let loopFrames = 1_200
    /// The whole sample: 200 loops (5 s).
    static let frames = 200 * loopFrames

    /// The sample as floats (what an SF3 compresses).
    static var sine: [Float] {
        (0..<frames).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / Double(sampleRate))) }
    }

    /// The file's bytes: SF2 with 16-bit samples, or SF3 with `compressedSample` (Ogg Vorbis).
    static func data(compressedSample: Data? = nil) -> Data {
        var samples = Data()
        if let compressedSample {
            samples = compressedSample
        } else {
            for value in sine + [Float](repeating: 0, count: 46) { samples.append(contentsOf: le16(Int16(value * 32767))) }
        }
        let isCompressed = compressedSample != nil
        let info = list("INFO", chunk("ifil", le16(isCompressed ? 3 : 2), le16(isCompressed ? 0 : 1)), chunk("isng", ascii("EMU8000", 8)), chunk("INAM", ascii("AUSampler test", 16)))
        let sdta = list("sdta", chunk("smpl", samples))
        let loopStart = UInt32(loopFrames), loopEnd = UInt32(frames - loopFrames)
        // SF3: start and end are byte offsets into smpl, the loop in frames from the sample's start.
        let (start, end, startLoop, endLoop): (UInt32, UInt32, UInt32, UInt32) = isCompressed
            ? (0, UInt32(samples.count), loopStart, loopEnd)
            : (0, UInt32(frames), loopStart, loopEnd)
        let sampleType: UInt16 = isCompressed ? 0x11 : 1
        let pdta = list("pdta",
            chunk("phdr", ascii("Sine", 20), le16(0), le16(0), le16(0), le32(0), le32(0), le32(0),
                ascii("EOP", 20), le16(0), le16(0), le16(1), le32(0), le32(0), le32(0)),
            chunk("pbag", le16(0), le16(0), le16(1), le16(0)),
            chunk("pmod", Data(count: 10)),
            chunk("pgen", le16(41), le16(0), le16(0), le16(0)),
            chunk("inst", ascii("Sine", 20), le16(0), ascii("EOI", 20), le16(1)),
            chunk("ibag", le16(0), le16(0), le16(2), le16(0)),
            chunk("imod", Data(count: 10)),
            chunk("igen", le16(54), le16(1), le16(53), le16(0), le16(0), le16(0)),
            chunk("shdr", ascii("Sine A4", 20), le32(start), le32(end), le32(startLoop), le32(endLoop), le32(UInt32(sampleRate)),
                Data([rootKey, 0]), le16(0), le16(sampleType),
                ascii("EOS", 20), Data(count: 26)))
        return chunk("RIFF", Data("sfbk".utf8), info, sdta, pdta)
    }

    /// A RIFF chunk: `id`, the length, the parts one after another, a pad byte to an even length.
    private static func chunk(_ id: String, _ parts: Data...) -> Data {
        let payload = Data(parts.joined())
        return Data(id.utf8) + le32(UInt32(payload.count)) + payload + (payload.count % 2 == 1 ? Data([0]) : Data())
    }

    private static func list(_ type: String, _ parts: Data...) -> Data { chunk("LIST", Data(type.utf8) + Data(parts.joined())) }

    private static func ascii(_ text: String, _ size: Int) -> Data {
        Data(text.utf8.prefix(size - 1)) + Data(count: size - min(text.utf8.count, size - 1))
    }

    private static func le16(_ value: UInt16) -> Data { Data([UInt8(value & 0xFF), UInt8(value >> 8)]) }
    private static func le16(_ value: Int16) -> Data { le16(UInt16(bitPattern: value)) }
    private static func le16(_ value: Int) -> Data { le16(UInt16(value)) }
    private static func le32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
}
