import AUHostCLI
import Foundation
import Testing

/// `auhost render` of the reference chain writes, byte for byte, the files it wrote before
/// issue 32's changes (file writes gathered, quantization in C, true peak asked for, one
/// thread with `--threads 1`, bundles loaded on demand): the checksums below were taken
/// from the build before them, over the same input (made here without AUFiles: a WAV's
/// bytes written by hand). The summary line's figures are the old ones too, the true peak
/// with `--true-peak`; without it the true peak is not measured and not printed.
@Suite struct ReferenceRenderChecksumTests {
    /// Two seconds of 48 kHz stereo 16-bit WAV: a sawtooth on the left, a linear
    /// congruential generator's noise on the right (integer arithmetic only).
    static func inputBytes() -> Data {
        let frames = 96_000
        var data = Data()
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append32(UInt32(36 + frames * 4)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16); append16(1); append16(2); append32(48_000); append32(192_000); append16(4); append16(16)
        data.append(contentsOf: Array("data".utf8)); append32(UInt32(frames * 4))
        var state: UInt32 = 1
        for frame in 0..<frames {
            let left = (frame * 7919) % 20_000 - 10_000
            state = (state &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
            let right = Int(state >> 16) % 16_000 - 8_000
            append16(UInt16(bitPattern: Int16(left)))
            append16(UInt16(bitPattern: Int16(right)))
        }
        return data
    }

    /// FNV-1a, 64 bits, over a file's bytes.
    static func checksum(_ path: String) throws -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in try Data(contentsOf: URL(fileURLWithPath: path)) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    static let preset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Presets/reference.json").path

    /// The old build's checksums and summary levels, per setting.
    static let cases: [(arguments: [String], checksum: String)] = [
        (["--bit-depth", "16", "--block", "64", "--threads", "1"], "40f014a3180d99b9"),
        (["--bit-depth", "16", "--block", "64"], "40f014a3180d99b9"),
        (["--bit-depth", "24", "--block", "1024", "--threads", "1"], "3b1bcefa1707400f"),
        (["--bit-depth", "32f", "--block", "64", "--threads", "1"], "9d9601a833cbe868"),
    ]
    static let oldLevels = "peak -9.22 dBFS, RMS -22.44 dBFS, true peak -7.89 dBTP"

    @Test(arguments: 0..<4)
    func outputIsTheOldBuildsByteForByte(index: Int) throws {
        let folder = NSTemporaryDirectory() + "auhost-checksum-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/in.wav", output = folder + "/out.wav"
        try Self.inputBytes().write(to: URL(fileURLWithPath: input))
        let (arguments, expected) = Self.cases[index]
        let out = TextOutput(), errors = TextOutput()
        let status = AUHostCLI.run(["render", Self.preset, input, "-o", output, "--tail", "0"] + arguments, output: out, errors: errors)
        #expect(status == 0, "\(errors.captured)")
        #expect(try Self.checksum(output) == expected, "\(arguments)")
    }

    @Test func truePeakIsMeasuredWhenAskedAndThenIsTheOldFigure() throws {
        let folder = NSTemporaryDirectory() + "auhost-truepeak-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/in.wav"
        try Self.inputBytes().write(to: URL(fileURLWithPath: input))
        let base = ["render", Self.preset, input, "--tail", "0", "--bit-depth", "16", "--block", "64", "--threads", "1"]
        let asked = TextOutput(), plain = TextOutput(), errors = TextOutput()
        #expect(AUHostCLI.run(base + ["-o", folder + "/a.wav", "--true-peak"], output: asked, errors: errors) == 0, "\(errors.captured)")
        #expect(AUHostCLI.run(base + ["-o", folder + "/b.wav", "--results", folder + "/rows.jsonl"], output: plain, errors: errors) == 0, "\(errors.captured)")
        #expect(asked.captured.contains("; \(Self.oldLevels)"), "\(asked.captured)")
        let withoutTruePeak = try #require(Self.oldLevels.components(separatedBy: ", true peak").first)
        #expect(plain.captured.contains("; \(withoutTruePeak)\n"), "\(plain.captured)")
        #expect(!plain.captured.contains("true peak"), "not measured, not printed: \(plain.captured)")
        let row = try String(contentsOfFile: folder + "/rows.jsonl", encoding: .utf8)
        #expect(row.contains("\"peak_dbfs\"") && !row.contains("true_peak_dbtp"), "\(row)")
    }
}
