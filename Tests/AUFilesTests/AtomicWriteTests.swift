import AUCore
import AUFiles
import AUTestSupport
import Foundation
import Testing

@Suite struct AtomicWriteTests {
    let encoding = try! AudioFileEncoding(format: .wav, bitDepth: .int24)

    private func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    @Test func missingFolderIsAClearErrorAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("no/such/folder/out.wav")
        let error = #expect(throws: AudioUnitError.self) {
            _ = try AudioFileWriter(path: path, encoding: encoding, sampleRate: 48000, channels: 2)
        }
        #expect(error?.code == .invalidFilePath)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("does not exist") == true)
        #expect(folder.contents().isEmpty)
    }

    @Test func existingFileIsKeptWithoutOverwrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keep.wav")
        let original: [UInt8] = Array("not audio, but mine".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(original)))
        let error = #expect(throws: AudioUnitError.self) {
            _ = try AudioFileWriter(path: path, encoding: encoding, sampleRate: 48000, channels: 2)
        }
        #expect(error?.message.contains("already exists") == true)
        #expect(bytes(path) == original)
        #expect(folder.contents() == ["keep.wav"])
    }

    @Test func outputAppearsOnlyAtFinish() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("new.wav")
        let writer = try AudioFileWriter(path: path, encoding: encoding, sampleRate: 48000, channels: 1)
        try Signals.sine(frequency: 100, sampleRate: 48000, frames: 4800).withView { try writer.write($0) }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing at the destination while writing")
        #expect(folder.contents().isEmpty, "the output has no name until it is finished (O_TMPFILE)")
        try writer.finish()
        #expect(folder.contents() == ["new.wav"], "the unnamed file was linked into place, not copied")
        #expect(try AudioFileReader(path: path).info.frames == 4800)
    }

    /// A render that fails half way (the caller cancels, or drops the writer) leaves the
    /// existing file byte for byte as it was and no temporary file.
    @Test(arguments: [true, false])
    func abandonedOverwriteLeavesTheExistingFile(cancelExplicitly: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("mix.wav")
        try Signals.write(Signals.sine(frequency: 220, sampleRate: 48000, frames: 1000), to: path, encoding: encoding)
        let before = bytes(path)
        do {
            let writer = try AudioFileWriter(path: path, encoding: encoding, sampleRate: 48000, channels: 1, overwrite: true)
            try Signals.noise(frames: 20000, channels: 1).withView { try writer.write($0) }
            if cancelExplicitly {
                writer.cancel()
                #expect(throws: AudioUnitError.self) { try Signals.noise(frames: 10, channels: 1).withView { try writer.write($0) } }
                #expect(throws: AudioUnitError.self) { try writer.finish() }
            }
        }
        #expect(bytes(path) == before)
        #expect(folder.contents() == ["mix.wav"])
    }

    @Test func overwriteReplacesOnFinish() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("mix.flac")
        let flac = try AudioFileEncoding(format: .flac, bitDepth: .int16)
        try Signals.write(Signals.sine(frequency: 220, sampleRate: 48000, frames: 1000), to: path, encoding: flac)
        try Signals.write(Signals.sine(frequency: 220, sampleRate: 48000, frames: 3000), to: path, encoding: flac, overwrite: true)
        #expect(try AudioFileReader(path: path).info.frames == 3000)
        #expect(folder.contents() == ["mix.flac"])
    }

    /// The folder disappears while rendering: the final rename fails, the error says so,
    /// and nothing is left anywhere.
    @Test func failingRenameLeavesNoFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)
        let path = folder.file("out/gone.wav")
        let writer = try AudioFileWriter(path: path, encoding: encoding, sampleRate: 48000, channels: 2)
        try Signals.noise(frames: 1000, channels: 2).withView { try writer.write($0) }
        try FileManager.default.removeItem(atPath: folder.file("out"))
        let error = #expect(throws: AudioUnitError.self) { try writer.finish() }
        #expect(error?.message.contains(path) == true)
        #expect(folder.contents().isEmpty)
    }

    /// A full disk, for real: a 64 KiB tmpfs (needs root, as in the CI container; skipped
    /// elsewhere). The write fails with libsndfile's reason, no partial output is left,
    /// and the existing file is untouched.
    @Test(.enabled(if: TinyFileSystem.isAvailable, "mounting a tmpfs needs root"))
    func fullDiskLeavesNoPartialFileAndKeepsTheOldOne() throws {
        let disk = try #require(TinyFileSystem(kibibytes: 64))
        defer { disk.unmount() }
        let path = "\(disk.path)/full.wav"
        try Signals.write(Signals.sine(frequency: 220, sampleRate: 48000, frames: 100), to: path, encoding: encoding)
        let before = bytes(path)

        let error = #expect(throws: AudioUnitError.self) {
            let writer = try AudioFileWriter(path: path, encoding: encoding, sampleRate: 48000, channels: 2, overwrite: true)
            try Signals.forEachBlock(of: Signals.noise(frames: 48000, channels: 2), size: 4096) { (block) throws(AudioUnitError) in
                try writer.write(block)
            }
            try writer.finish()
        }
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("No space left") == true, "message: \(error?.message ?? "")")
        #expect(bytes(path) == before)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: disk.path)) == ["full.wav"])
    }
}
