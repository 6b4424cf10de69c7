import Foundation

/// What a SoundFont bank says plays a key: read from the file's `pdta` lists (presets,
/// their zones and generators, instruments, sample headers) and its `smpl` data, as the
/// SoundFont 2.04 specification lays them out. For the pitch tests: which samples sound,
/// at which root key and tuning, and the samples' own data.
struct SoundFontZones {
    /// One sample a key plays, with what sets its pitch.
    struct Sound {
        let name: String
        let sampleRate: Double
        /// The overriding root key when a zone gives one, else the sample header's.
        let rootKey: Int
        /// The sample header's pitch correction plus the zones' coarse and fine tune, in cents.
        let tuningCents: Double
        /// The zone's pan in tenths of a percent: -500 is left only, 500 right only.
        let pan: Int
        /// The sample's data from its start, as floats.
        let data: [Float]

        /// The frequency the bank intends `key` to sound at: the sample is taken to be in
        /// tune at its root key (equal temperament, A4 = 440 Hz).
        func intendedFrequency(key: Int) -> Double {
            440 * pow(2, (Double(key - 69) * 100 + tuningCents) / 1200)
        }

        /// How many times faster than recorded the sample plays at `key`.
        func playbackRatio(key: Int) -> Double {
            pow(2, (Double(key - rootKey) * 100 + tuningCents) / 1200)
        }
    }

    private let bytes: [UInt8]
    private var lists: [String: Range<Int>] = [:]
    private var samples = 0..<0

    init(path: String) throws {
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for (id, range) in chunks(in: 12..<bytes.count) where id == "LIST" {
            let kind = string(range.lowerBound, 4)
            for (sub, subRange) in chunks(in: (range.lowerBound + 4)..<range.upperBound) {
                if kind == "pdta" { lists[sub] = subRange }
                if kind == "sdta" && sub == "smpl" { samples = subRange }
            }
        }
    }

    /// The samples that sound for `key` at `velocity` in `bank`:`program`.
    func sounds(bank: Int, program: Int, key: Int, velocity: Int) -> [Sound] {
        let presets = records("phdr", size: 38)
        guard let index = presets.indices.dropLast().first(where: { u16(presets[$0] + 20) == program && u16(presets[$0] + 22) == bank }) else { return [] }
        let presetZones = zones(bags: records("pbag", size: 4), generators: records("pgen", size: 4),
                                from: u16(presets[index] + 24), to: u16(presets[index + 1] + 24), link: 41)
        let instruments = records("inst", size: 22), headers = records("shdr", size: 46)
        var sounds: [Sound] = []
        for presetZone in presetZones where covers(presetZone, key: key, velocity: velocity) {
            let instrument = presetZone[41]!
            let instrumentZones = zones(bags: records("ibag", size: 4), generators: records("igen", size: 4),
                                        from: u16(instruments[instrument] + 20), to: u16(instruments[instrument + 1] + 20), link: 53)
            for zone in instrumentZones where covers(zone, key: key, velocity: velocity) {
                let header = headers[zone[53]!]
                let start = Int(u32(header + 20)), end = Int(u32(header + 24))
                let tune = [51, 52].map { Double(zone[$0] ?? 0) * ($0 == 51 ? 100 : 1) + Double(presetZone[$0] ?? 0) * ($0 == 51 ? 100 : 1) }.reduce(0, +)
                let data = (start..<end).map { Float(Int16(bitPattern: UInt16(bytes[samples.lowerBound + 2 * $0]) | UInt16(bytes[samples.lowerBound + 2 * $0 + 1]) << 8)) / 32_768 }
                sounds.append(Sound(
                    name: string(header, 20).trimmingCharacters(in: .controlCharacters), sampleRate: Double(u32(header + 36)),
                    rootKey: zone[58].map { Int($0) } ?? Int(bytes[header + 40]), tuningCents: Double(Int8(bitPattern: bytes[header + 41])) + tune,
                    pan: (zone[17] ?? 0) + (presetZone[17] ?? 0), data: data))
            }
        }
        return sounds
    }

    /// The generators of each zone from bag `from` to `to`, a global zone's (the first, when
    /// it lacks the `link` generator) under each of the others.
    private func zones(bags: [Int], generators: [Int], from: Int, to: Int, link: Int) -> [[Int: Int]] {
        var global: [Int: Int] = [:], result: [[Int: Int]] = []
        for bag in from..<to {
            var zone: [Int: Int] = [:]
            for generator in u16(bags[bag])..<u16(bags[bag + 1]) {
                let operation = u16(generators[generator]), amount = generators[generator] + 2
                // Ranges are two bytes (low, high); an instrument or sample is an index; the rest signed.
                zone[operation] = operation == 41 || operation == 53 || operation == 43 || operation == 44
                    ? u16(amount) : Int(Int16(bitPattern: UInt16(u16(amount))))
            }
            if zone[link] == nil && bag == from { global = zone } else { result.append(global.merging(zone) { $1 }) }
        }
        return result
    }

    private func covers(_ zone: [Int: Int], key: Int, velocity: Int) -> Bool {
        [(43, key), (44, velocity)].allSatisfy { generator, value in
            zone[generator].map { ($0 & 0xFF)...($0 >> 8) ~= value } ?? true
        }
    }

    /// The offsets of the records of a `pdta` list.
    private func records(_ list: String, size: Int) -> [Int] {
        lists[list].map { Array(stride(from: $0.lowerBound, to: $0.upperBound, by: size)) } ?? []
    }

    private func chunks(in range: Range<Int>) -> [(String, Range<Int>)] {
        var result: [(String, Range<Int>)] = [], offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(u32(offset + 4))
            result.append((string(offset, 4), (offset + 8)..<min(offset + 8 + size, range.upperBound)))
            offset += 8 + size + size % 2
        }
        return result
    }

    private func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    private func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
    private func string(_ at: Int, _ count: Int) -> String { String(decoding: bytes[at..<(at + count)].prefix { $0 != 0 }, as: UTF8.self) }
}
