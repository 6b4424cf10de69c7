/// The one error of AUMIDI: a Standard MIDI File that cannot be read (or a sequence that
/// cannot be written as one), with where and why. `description` reads
/// `song.mid: byte 58: track 1 ends inside an event; expected 2 more bytes of a note-on`.
/// Track numbers in messages count the file's `MTrk` chunks from 0.
/// - Thread: [any]
public struct MIDIFileError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The file's path, or `<data>` for bytes read from or written to memory.
    public let path: String
    /// The byte offset of the problem in the file read; nil for a file that could not be
    /// written (the destination's fault, not a byte's).
    public let offset: Int?
    /// What was expected and what was found.
    public let message: String

    /// An error at `offset` of the file at `path` (nil: the file as a whole).
    /// - Thread: [any]
    public init(path: String, offset: Int?, message: String) {
        self.path = path
        self.offset = offset
        self.message = message
    }

    /// `path: byte offset: message`, or `path: message` without an offset.
    /// - Thread: [any]
    public var description: String { offset.map { "\(path): byte \($0): \(message)" } ?? "\(path): \(message)" }
}
