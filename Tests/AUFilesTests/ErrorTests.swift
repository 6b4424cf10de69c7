import AUCore
import AUFiles
import AUTestSupport
import Foundation
import Testing

@Suite struct ReadErrorTests {
    private func openError(_ path: String) -> AudioUnitError? {
        #expect(throws: AudioUnitError.self) { _ = try AudioFileReader(path: path) }
    }

    @Test func missingFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("absent.wav")
        let error = openError(path)
        #expect(error?.code == .invalidFilePath)
        #expect(error?.message == "\(path): no such file; expected an audio file to read")
    }

    @Test func folderInsteadOfFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let error = openError(folder.path)
        #expect(error?.message.contains("is a folder") == true)
    }

    /// Random bytes and text with audio names: libsndfile's reason is in the message.
    @Test(arguments: ["noise.wav", "notes.flac", "empty.aiff"])
    func unrecognisedContent(name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file(name)
        let content: [UInt8] = switch name {
        case "noise.wav": (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        case "notes.flac": Array("This is a text file, not FLAC.\n".utf8)
        default: []
        }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        let error = openError(path)
        #expect(error?.message.hasPrefix("\(path): ") == true)
        #expect(error?.message.contains("libsndfile:") == true, "message: \(error?.message ?? "")")
        #expect([.unknownFileType, .invalidFile, .formatNotSupported].contains(error?.code))
    }

    /// A real WAV header whose format chunk is damaged.
    @Test func corruptHeader() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("broken.wav")
        try Signals.write(Signals.sine(frequency: 440, sampleRate: 48000, frames: 480), to: path, encoding: AudioFileEncoding(format: .wav, bitDepth: .int16))
        var bytes = try #require(FileManager.default.contents(atPath: path))
        // The fmt chunk's channel count (10 bytes in) and bits per sample (22 bytes in): nonsense.
        let fmt = try #require(bytes.firstRange(of: Data("fmt ".utf8))?.lowerBound)
        bytes[fmt + 10] = 0
        bytes[fmt + 11] = 0
        bytes[fmt + 22] = 13
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = openError(path)
        #expect(error?.message.hasPrefix("\(path): ") == true)
        #expect(error?.message.contains("libsndfile:") == true, "message: \(error?.message ?? "")")
    }

    @Test func errorDescriptionIsOneLine() {
        let error = openError("/nonexistent-\(getpid())/x.wav")
        #expect(error.map { "\($0)" }?.contains("\n") == false)
        #expect(error.map { "\($0)" }?.hasSuffix("[InvalidFilePath -66742]") == true)
    }

    /// A WAV and an AIFF cut in half (a copy that stopped): each opens, reads the frames it
    /// holds and says it was cut short, with its header's and its own data sizes; the whole
    /// files say nothing.
    @Test(arguments: [AudioFileFormat.wav, .aiff])
    func aFileCutShortSaysSo(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let whole = folder.file("whole.\(format)"), cut = folder.file("cut.\(format)")
        try Signals.write(Signals.sine(frequency: 440, sampleRate: 48000, frames: 4800), to: whole, encoding: AudioFileEncoding(format: format, bitDepth: .int16))
        let bytes = try #require(FileManager.default.contents(atPath: whole))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(try AudioFileReader(path: whole).info.truncation == nil)
        let reader = try AudioFileReader(path: cut)
        let truncation = try #require(reader.info.truncation)
        #expect(reader.info.frames > 0 && reader.info.frames < 4800)
        // Mono 16-bit: two bytes a frame (and AIFF's SSND has 8 bytes before its samples).
        #expect((reader.info.frames * 2...reader.info.frames * 2 + 9).contains(truncation.heldBytes), "\(truncation), \(reader.info.frames) frames")
        #expect(truncation.headerBytes >= 4800 * 2 && truncation.headerBytes > truncation.heldBytes, "\(truncation)")
        #expect(reader.info.cutShort == "cut short: its header gives \(truncation.headerBytes) bytes of audio, the file holds \(truncation.heldBytes) (\(reader.info.frames) frames)")
        #expect(try reader.readAll().capacity == reader.info.frames)
    }
}

@Suite struct EncodingValidationTests {
    @Test func oggTakesNoBitDepth() {
        let error = #expect(throws: AudioUnitError.self) { try AudioFileEncoding(format: .ogg, bitDepth: .int16) }
        #expect(error?.code == .formatNotSupported)
        #expect(error?.message.contains("lossy and takes no bit depth") == true)
    }

    @Test func flacTakesNoFloat() {
        let error = #expect(throws: AudioUnitError.self) { try AudioFileEncoding(format: "flac", bitDepth: "32f") }
        #expect(error?.message == "format 'flac' cannot store bit depth 32f; expected one of 16|24")
    }

    @Test func unknownSpellings() {
        let format = #expect(throws: AudioUnitError.self) { try AudioFileEncoding(format: "mp3", bitDepth: nil) }
        #expect(format?.message == "unknown output format 'mp3'; expected one of wav|flac|aiff|caf|ogg")
        let depth = #expect(throws: AudioUnitError.self) { try AudioFileEncoding(format: "wav", bitDepth: "12") }
        #expect(depth?.message == "unknown bit depth '12'; expected one of 16|24|32f")
    }

    @Test func defaultsAndExtensions() throws {
        #expect(try AudioFileEncoding(format: "WAV", bitDepth: nil).bitDepth == .int24)
        #expect(try AudioFileEncoding(format: .ogg).bitDepth == nil)
        #expect(try AudioFileEncoding(format: .aiff, bitDepth: .float32).description == "aiff 32-bit float")
        #expect(AudioFileFormat(fileExtensionOf: "out/Take.AIF") == .aiff)
        #expect(AudioFileFormat(fileExtensionOf: "a.b/noext") == nil)
        #expect(AudioFileFormat(fileExtensionOf: "x.mp3") == nil)
    }

    /// Combinations libsndfile refuses are caught before any file is made.
    @Test func refusedByLibsndfileBeforeAnyFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let error = #expect(throws: AudioUnitError.self) {
            _ = try AudioFileWriter(path: folder.file("wide.flac"), encoding: AudioFileEncoding(format: .flac, bitDepth: .int16), sampleRate: 48000, channels: 12)
        }
        #expect(error?.message.contains("libsndfile cannot write flac 16-bit at 48000 Hz with 12 channels") == true)
        #expect(folder.contents().isEmpty)
    }
}
