import AUCore
import Foundation

/// A SoundFont file (SF2, or SF3 with compressed samples) checked before FluidSynth reads
/// it: FluidSynth (and libinstpatch under it) print to standard error on a file that is not
/// one, and a truncated file is only noticed deep in its parser. The check reads the RIFF
/// header (`RIFF` size `sfbk`) and the headers of the top-level chunks, which must fit in
/// the file and include the `INFO`, `sdta` and `pdta` lists the SoundFont 2 format requires.
/// Every error names the file.
struct SoundBankFile {
    /// The file's absolute path, as loaded and saved in state.
    let path: String

    /// The lists a SoundFont's RIFF form holds, in the order the format gives them.
    static let requiredLists = ["INFO", "sdta", "pdta"]

    /// The largest bank read: 1 GiB (the largest General MIDI banks are a few hundred
    /// MiB). A larger file, real or sparse, is refused before FluidSynth reads it whole.
    /// - Thread: [any]
    static let maximumFileSize: UInt64 = 1 << 30

    /// The top-level chunks read before a file is called corrupt.
    static let maximumTopLevelChunks = 64

    /// Checks the file at `path` (relative paths are taken from the current directory).
    /// What is not a regular file (a folder, a FIFO, a device, a socket) is refused without
    /// being opened: reading a FIFO may never end.
    init(validating path: String) throws(AudioUnitError) {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        self.path = absolute
        switch AtomicFile.NodeKind(path: absolute) {
        case .regularFile: break
        case .missing:
            var link = stat()
            guard lstat(absolute, &link) == 0 else { throw AudioUnitError(.invalidFilePath, "sound bank '\(absolute)' does not exist") }
            throw AudioUnitError(.invalidFilePath, "sound bank '\(absolute)' is a symbolic link that leads nowhere or loops; expected a SoundFont file")
        case let kind:
            throw AudioUnitError(.invalidFilePath, "sound bank '\(absolute)' is \(kind), not a file; expected a SoundFont file (.sf2 or .sf3)")
        }
        guard let handle = FileHandle(forReadingAtPath: absolute), let length = try? handle.seekToEnd() else {
            throw AudioUnitError(.invalidFilePath, "sound bank '\(absolute)' cannot be read (no permission)")
        }
        defer { try? handle.close() }
        guard length <= Self.maximumFileSize else {
            throw AudioUnitError(
                .invalidFile, "sound bank '\(absolute)' is larger than \(Self.maximumFileSize >> 20) MiB (\(length) bytes); expected a SoundFont of at most that size")
        }
        let header = Self.read(handle, at: 0, count: 12)
        guard header.count == 12, header.prefix(4) == Data("RIFF".utf8), header.suffix(4) == Data("sfbk".utf8) else {
            throw AudioUnitError(
                .unknownFileType, "sound bank '\(absolute)' is not a SoundFont (SF2 or SF3): it does not begin with a RIFF 'sfbk' header")
        }
        let formEnd = 8 + UInt64(Self.word(header, at: 4))
        guard formEnd <= length else {
            throw AudioUnitError(
                .invalidFile, "sound bank '\(absolute)' is truncated: its RIFF header gives \(formEnd) bytes, the file has \(length)")
        }
        var lists: [String] = []
        var offset: UInt64 = 12
        var chunks = 0
        while offset + 8 <= formEnd {
            // A SoundFont has three; the walk is bounded whatever the sizes say.
            chunks += 1
            guard chunks <= Self.maximumTopLevelChunks else {
                throw AudioUnitError(
                    .invalidFile, "sound bank '\(absolute)' is corrupt: more than \(Self.maximumTopLevelChunks) chunks in its RIFF form; expected the lists INFO, sdta, pdta")
            }
            let chunk = Self.read(handle, at: offset, count: 12)
            let size = UInt64(Self.word(chunk, at: 4))
            let end = offset + 8 + size + size % 2
            guard chunk.count >= 8, offset + 8 + size <= formEnd else {
                throw AudioUnitError(
                    .invalidFile, "sound bank '\(absolute)' is truncated or corrupt: the chunk at byte \(offset) runs past the end of the RIFF form")
            }
            // The list's type as a four-character code: bytes that are not printable (a
            // newline, an escape sequence) read as its hexadecimal value, never raw.
            if chunk.prefix(4) == Data("LIST".utf8), chunk.count == 12 {
                lists.append(FourCharCode(rawValue: chunk.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }).description)
            }
            offset = end
        }
        guard lists == Self.requiredLists else {
            throw AudioUnitError(
                .invalidFile,
                "sound bank '\(absolute)' is not a complete SoundFont: its lists are \(lists.isEmpty ? "none" : lists.joined(separator: ", ")), expected INFO, sdta, pdta")
        }
    }

    private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) -> Data {
        guard (try? handle.seek(toOffset: offset)) != nil else { return Data() }
        return (try? handle.read(upToCount: count)) ?? Data()
    }

    /// A little-endian 32-bit word.
    private static func word(_ data: Data, at index: Int) -> UInt32 {
        guard data.count >= index + 4 else { return 0 }
        let start = data.startIndex + index
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[start + $1]) << (8 * UInt32($1)) }
    }
}
