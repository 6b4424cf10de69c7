import Foundation

/// A tiny 32-bit float WAV reader and writer, so the tests can hand files to `lv2apply`.
enum WAVFile {
    /// Writes interleaved 32-bit float samples (`channels[c][frame]`).
    static func write(_ channels: [[Float]], sampleRate: Int, to url: URL) throws {
        let frames = channels.first?.count ?? 0
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let dataSize = frames * channels.count * 4
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + dataSize))
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(channels.count))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * channels.count * 4)); append(UInt16(channels.count * 4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(dataSize))
        for frame in 0..<frames {
            for channel in channels { append(channel[frame].bitPattern) }
        }
        try data.write(to: url)
    }

    /// Reads a 32-bit float WAV (plain or extensible) into `channels[c][frame]`.
    static func read(_ url: URL) throws -> [[Float]] {
        let data = try Data(contentsOf: url)
        func u32(_ offset: Int) -> UInt32 { data.subdata(in: offset..<offset + 4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } }
        func u16(_ offset: Int) -> UInt16 { data.subdata(in: offset..<offset + 2).withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) } }
        var offset = 12
        var channelCount = 0, bits = 0
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<offset + 4], as: UTF8.self)
            let size = Int(u32(offset + 4))
            if id == "fmt " {
                channelCount = Int(u16(offset + 10))
                bits = Int(u16(offset + 22))
            } else if id == "data" {
                guard bits == 32, channelCount > 0 else { throw CocoaError(.fileReadCorruptFile) }
                let frames = size / (4 * channelCount)
                var channels = [[Float]](repeating: [], count: channelCount)
                for frame in 0..<frames {
                    for channel in 0..<channelCount {
                        channels[channel].append(Float(bitPattern: u32(offset + 8 + (frame * channelCount + channel) * 4)))
                    }
                }
                return channels
            }
            offset += 8 + size + (size & 1)
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}
