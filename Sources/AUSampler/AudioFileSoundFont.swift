import AUCore

/// One audio file as a zone of the sampler's instrument (Core Audio's
/// `kAUSamplerProperty_LoadAudioFiles`): its samples (one or two channels), their rate, and
/// the key that plays them at their own pitch, which is also the one key the zone covers.
/// - Thread: [any]
public struct SamplerAudioZone: Sendable {
    /// The zone's name (the file's), cut to the SoundFont's 20 bytes.
    public var name: String
    public var sampleRate: Double
    /// One array per channel, all of one length (mono or stereo).
    public var channels: [[Float]]
    public var rootKey: Int

    /// - Thread: [any]
    public init(name: String, sampleRate: Double, channels: [[Float]], rootKey: Int) {
        self.name = name
        self.sampleRate = sampleRate
        self.channels = channels
        self.rootKey = rootKey
    }
}

/// A SoundFont 2.01 file made from audio zones, which FluidSynth then loads as any bank: one
/// preset (bank 0, program 0) of one instrument with a zone per file and channel, each on its
/// root key alone (`keyRange` and `overridingRootKey`), a stereo file as two zones panned
/// left and right. Samples are 16-bit (rounded, clipped at full scale), played once (no
/// loop), each followed by the 46 zero samples the format asks for.
enum AudioFileSoundFont {
    /// SoundFont generator numbers.
    private enum Generator: UInt16 {
        case pan = 17, instrument = 41, keyRange = 43, sampleID = 53, sampleModes = 54, overridingRootKey = 58
    }

    /// The file's bytes; a zone that is no mono or stereo audio of at least one frame, at a
    /// rate above 0, on a key 0…127, is `InvalidPropertyValue` naming it.
    static func data(_ zones: [SamplerAudioZone]) throws(AudioUnitError) -> [UInt8] {
        guard !zones.isEmpty else { throw AudioUnitError(.invalidPropertyValue, "no audio files to make zones of") }
        var smpl: [UInt8] = [], shdr: [UInt8] = [], ibag: [UInt8] = [], igen: [UInt8] = []
        var sampleCount = 0, generatorCount = 0
        for zone in zones {
            let frames = zone.channels.first?.count ?? 0
            guard (1...2).contains(zone.channels.count), frames > 0, zone.channels.allSatisfy({ $0.count == frames }),
                  zone.sampleRate.isFinite, zone.sampleRate >= 1, zone.sampleRate <= Double(UInt32.max), (0...127).contains(zone.rootKey)
            else {
                throw AudioUnitError(.invalidPropertyValue, "'\(zone.name)': \(zone.channels.count) channels of \(frames) frames at \(zone.sampleRate) Hz on key \(zone.rootKey); expected mono or stereo audio on a key 0…127")
            }
            for (channel, samples) in zone.channels.enumerated() {
                let start = smpl.count / 2
                for sample in samples { append(Int16(max(-32_768, min(32_767, (sample * 32_768).rounded()))), to: &smpl) }
                smpl += [UInt8](repeating: 0, count: 46 * 2)
                let end = start + frames
                shdr += name(zone.name, 20)
                for value in [UInt32(start), UInt32(end), UInt32(start), UInt32(end), UInt32(zone.sampleRate.rounded())] { append(value, to: &shdr) }
                shdr += [UInt8(zone.rootKey), 0]
                append(UInt16(0), to: &shdr)   // sample link
                append(UInt16(1), to: &shdr)   // mono sample
                append(UInt16(generatorCount), to: &ibag)
                append(UInt16(0), to: &ibag)
                let key = UInt16(zone.rootKey)
                var generators: [(Generator, UInt16)] = [(.keyRange, key | key << 8)]
                if zone.channels.count == 2 { generators.append((.pan, UInt16(bitPattern: channel == 0 ? -500 : 500))) }
                generators += [(.sampleModes, 0), (.overridingRootKey, key), (.sampleID, UInt16(sampleCount))]
                for (generator, amount) in generators {
                    append(generator.rawValue, to: &igen)
                    append(amount, to: &igen)
                }
                generatorCount += generators.count
                sampleCount += 1
            }
        }
        guard smpl.count < Int(UInt32.max) else { throw AudioUnitError(.invalidPropertyValue, "the audio files hold more samples than a SoundFont holds") }
        // Terminal records.
        shdr += name("EOS", 20) + [UInt8](repeating: 0, count: 26)
        append(UInt16(generatorCount), to: &ibag)
        append(UInt16(0), to: &ibag)
        igen += [0, 0, 0, 0]
        var phdr = name("Audio Files", 20)
        for value: UInt16 in [0, 0, 0] { append(value, to: &phdr) }   // program, bank, first bag
        phdr += [UInt8](repeating: 0, count: 12)
        phdr += name("EOP", 20)
        for value: UInt16 in [0, 0, 1] { append(value, to: &phdr) }
        phdr += [UInt8](repeating: 0, count: 12)
        let pbag: [UInt8] = [0, 0, 0, 0, 1, 0, 0, 0]
        var pgen: [UInt8] = []
        append(Generator.instrument.rawValue, to: &pgen)
        pgen += [0, 0, 0, 0, 0, 0]
        let modulators = [UInt8](repeating: 0, count: 10)
        var inst = name("Audio Files", 20)
        append(UInt16(0), to: &inst)
        inst += name("EOI", 20)
        append(UInt16(sampleCount), to: &inst)

        let info = list("INFO", chunk("ifil", [2, 0, 1, 0]) + chunk("isng", name("EMU8000", 8)) + chunk("INAM", name("AUHost audio files", 20)))
        let sdta = list("sdta", chunk("smpl", smpl))
        let pdta = list("pdta", chunk("phdr", phdr) + chunk("pbag", pbag) + chunk("pmod", modulators) + chunk("pgen", pgen)
            + chunk("inst", inst) + chunk("ibag", ibag) + chunk("imod", modulators) + chunk("igen", igen) + chunk("shdr", shdr))
        return chunk("RIFF", Array("sfbk".utf8) + info + sdta + pdta)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// `text` in `count` bytes, zero-padded (and cut, leaving a terminating zero).
    private static func name(_ text: String, _ count: Int) -> [UInt8] {
        let bytes = Array(text.utf8.prefix(count - 1))
        return bytes + [UInt8](repeating: 0, count: count - bytes.count)
    }

    private static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        var bytes = Array(id.utf8)
        append(UInt32(body.count), to: &bytes)
        return bytes + body + (body.count % 2 == 1 ? [0] : [])
    }

    private static func list(_ type: String, _ body: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + body) }
}
