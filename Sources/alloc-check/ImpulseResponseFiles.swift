import Foundation

/// Two short impulse responses (16-bit mono WAV at 48 kHz: a few decaying taps) that the
/// control thread gives the threaded convolver in turn through its `impulse` property: the
/// `patch:Set` crosses to the render thread, the plugin's worker thread loads the file.
/// - Thread: [control]
enum ImpulseResponseFiles {
    /// Writes the files into a fresh temporary folder and returns their paths.
    static func write() throws -> [String] {
        let folder = try TemporaryFolder.make("ir")
        return try [(1, 0.5), (3, 0.3)].enumerated().map { index, shape in
            let samples = (0..<256).map { frame in frame % (shape.0 * 16) == 0 ? Int16(20_000 * pow(shape.1, Double(frame) / 64)) : 0 }
            let path = folder.appendingPathComponent("ir\(index).wav").path
            try wav(samples).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    private static func wav(_ samples: [Int16]) -> Data {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + samples.count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(48_000)); append(UInt32(96_000)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(samples.count * 2))
        for sample in samples { append(sample) }
        return data
    }
}
