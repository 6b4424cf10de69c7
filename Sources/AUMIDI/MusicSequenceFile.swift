import AUCore
import Foundation

/// Reading and writing Standard MIDI Files (formats 0, 1 and 2), as Core Audio's
/// `MusicSequenceFileLoadData` and `MusicSequenceFileCreateData`. What each format becomes
/// is told by `MIDIFileFormat`; how tracks are read and written, by `MIDINoteMessage` and
/// `MIDIMetaEvent`. Reading a file and writing it back gives the same events.
extension MusicSequence {
    /// Reads a Standard MIDI File from `data`; `path` names it in errors.
    /// - Thread: [any]
    public static func load(data: Data, path: String = "<data>") throws(MIDIFileError) -> MusicSequence {
        let result: Result<MusicSequence, MIDIFileError> = data.withUnsafeBytes { raw in
            Result { () throws(MIDIFileError) in
                try StandardMIDIFileReader(bytes: raw.bindMemory(to: UInt8.self), path: path).read()
            }
        }
        return try result.get()
    }

    /// Reads a Standard MIDI File from `bytes`; `path` names it in errors.
    /// - Thread: [any]
    public static func load(bytes: [UInt8], path: String = "<data>") throws(MIDIFileError) -> MusicSequence {
        let result: Result<MusicSequence, MIDIFileError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(MIDIFileError) in
                try StandardMIDIFileReader(bytes: buffer, path: path).read()
            }
        }
        return try result.get()
    }

    /// Reads the Standard MIDI File at `url` (`MusicSequenceFileLoad`); see ``fileBytes(atPath:)``.
    /// - Thread: [control]
    public init(contentsOf url: URL) throws(MIDIFileError) {
        self = try Self.load(bytes: try Self.fileBytes(atPath: url.path), path: url.path)
    }

    /// Whether the file at `path` starts as a Standard MIDI File does (`MThd`): what picks
    /// the MIDI reader over the audio one. A path that cannot be read is not one.
    /// - Thread: [control]
    public static func isStandardMIDIFile(atPath path: String) -> Bool {
        guard AtomicFile.NodeKind(path: path) == .regularFile, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data("MThd".utf8)
    }

    /// The largest file read: 256 MiB (a million events take about 4 MiB).
    /// - Thread: [any]
    public static let maximumFileSize = 256 << 20

    /// The bytes of the file at `path`, to be read as a Standard MIDI File: a missing path, a
    /// folder, a device or a FIFO (never opened: reading one may never end), a file larger
    /// than ``maximumFileSize`` or one that cannot be read is an error without an offset that
    /// says what is there instead.
    /// - Thread: [control]
    public static func fileBytes(atPath path: String) throws(MIDIFileError) -> [UInt8] {
        func problem(_ message: String) -> MIDIFileError { MIDIFileError(path: path, offset: nil, message: message) }
        switch AtomicFile.NodeKind(path: path) {
        case .regularFile: break
        case .missing: throw problem("no such file; expected a Standard MIDI File (.mid)")
        case let kind: throw problem("is \(kind), not a file; expected a Standard MIDI File (.mid)")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw problem("cannot be read: \((error as NSError).localizedDescription)")
        }
        guard data.count <= maximumFileSize else {
            throw problem("is larger than \(maximumFileSize >> 20) MiB; expected a Standard MIDI File of at most that size")
        }
        return [UInt8](data)
    }

    /// The sequence as Standard MIDI File bytes of `format`, with the sequence's division;
    /// `runningStatus` leaves out repeated channel status bytes. Fails (at the offset
    /// reached) for what a file cannot hold: more than 65535 tracks, a division out of range,
    /// a channel message without a channel status, a delta time or length beyond 0x0FFFFFFF.
    /// - Thread: [any]
    public func fileBytes(
        format: MIDIFileFormat = .multipleTracks, runningStatus: Bool = false
    ) throws(MIDIFileError) -> [UInt8] {
        var writer = StandardMIDIFileWriter(
            sequence: self, format: format, usesRunningStatus: runningStatus)
        return try writer.write()
    }

    /// The sequence as Standard MIDI File data (`MusicSequenceFileCreateData`); see `fileBytes`.
    /// - Thread: [any]
    public func fileData(
        format: MIDIFileFormat = .multipleTracks, runningStatus: Bool = false
    ) throws(MIDIFileError) -> Data {
        Data(try fileBytes(format: format, runningStatus: runningStatus))
    }

    /// Writes the sequence as a Standard MIDI File at `path` (`MusicSequenceFileCreate`; see
    /// `fileBytes`) atomically, through AUCore's `AtomicFile`: the file appears only complete
    /// or not at all. An existing file is an error unless `overwrite`; a device, a FIFO or one
    /// of `inputs` (files the caller reads) is never replaced.
    /// - Thread: [control]
    public func write(
        to path: String, format: MIDIFileFormat = .multipleTracks, runningStatus: Bool = false, overwrite: Bool = false,
        inputs: [String] = []
    ) throws(MIDIFileError) {
        let data = try fileData(format: format, runningStatus: runningStatus)
        do throws(AtomicFileFailure) {
            let file = try AtomicFile(destination: path, overwrite: overwrite, inputs: inputs)
            try file.write(data)
            try file.commit()
        } catch {
            throw MIDIFileError(path: path, offset: nil, message: error.explanation)
        }
    }
}
