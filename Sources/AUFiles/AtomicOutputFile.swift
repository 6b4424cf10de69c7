import AUCore
import Foundation

/// An output file that appears at its destination only when complete.
///
/// The bytes go to a temporary file created (`mkstemp`) in the destination's own folder, so
/// the final `rename` stays on one file system and is atomic. ``commit()`` flushes the file
/// to disk, gives it the mode a new file would have (or the replaced file's mode), and
/// renames it into place; ``discard()`` (and `deinit`, when neither ran) deletes it. Until the
/// rename, an existing file at the destination is never touched; without `overwrite` it is
/// never replaced at all (the final step is `link`, which fails if the name exists).
/// - Thread: control.
final class AtomicOutputFile {
    let destination: String
    let temporaryPath: String
    /// The temporary file's descriptor, open for writing until commit or discard.
    let descriptor: Int32
    let overwrite: Bool
    private var isOpen = true
    private var isDone = false

    init(destination: String, overwrite: Bool) throws(AudioUnitError) {
        guard !destination.isEmpty, !destination.hasSuffix("/") else {
            throw .file(destination, .invalidFilePath, "is not a file name; expected a path such as out/take.wav")
        }
        let folder = Self.folder(of: destination)
        guard PathCheck.isDirectory(folder) else {
            let what = PathCheck.exists(folder) ? "is not a folder" : "does not exist"
            throw .file(destination, .invalidFilePath, "output folder '\(folder)' \(what); expected an existing folder")
        }
        if PathCheck.exists(destination) {
            if PathCheck.isDirectory(destination) {
                throw .file(destination, .invalidFilePath, "is a folder; expected a file name to write")
            }
            if !overwrite {
                throw .file(destination, .invalidFilePath, "already exists; pass overwrite (--force) to replace it")
            }
        }
        let name = destination.split(separator: "/").last.map(String.init) ?? destination
        var template = Array("\(folder)/.\(name).auhost-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .system(destination, .invalidFilePath, "cannot create a temporary file in '\(folder)'", errno: errno)
        }
        descriptor = fd
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.destination = destination
        self.overwrite = overwrite
    }

    deinit { if !isDone { discard() } }

    /// Flushes, closes and renames the temporary file into place. On failure the temporary
    /// file is deleted and the destination is as it was.
    func commit() throws(AudioUnitError) {
        precondition(!isDone, "commit after commit or discard")
        func fail(_ text: String, _ number: Int32) -> AudioUnitError {
            discard()
            return .system(destination, .invalidFile, text, errno: number)
        }
        guard fsync(descriptor) == 0 else { throw fail("cannot flush the output to disk", errno) }
        _ = fchmod(descriptor, mode_t(Self.modeForNewFile(replacing: overwrite ? destination : nil)))
        isOpen = false
        guard close(descriptor) == 0 else { throw fail("cannot close the output", errno) }
        if overwrite {
            guard rename(temporaryPath, destination) == 0 else { throw fail("cannot rename the finished output into place", errno) }
        } else if link(temporaryPath, destination) == 0 {
            unlink(temporaryPath)
        } else {
            let linkError = errno
            if linkError == EEXIST {
                discard()
                throw .file(destination, .invalidFilePath, "appeared while rendering and was kept; pass overwrite (--force) to replace it")
            }
            // A file system without hard links: check, then rename (not atomic against a
            // racing writer, which the link above is).
            guard !PathCheck.exists(destination) else {
                discard()
                throw .file(destination, .invalidFilePath, "appeared while rendering and was kept; pass overwrite (--force) to replace it")
            }
            guard rename(temporaryPath, destination) == 0 else { throw fail("cannot rename the finished output into place", errno) }
        }
        isDone = true
        syncFolder()
    }

    /// Deletes the temporary file; the destination is untouched.
    func discard() {
        if isOpen {
            isOpen = false
            close(descriptor)
        }
        if !isDone {
            isDone = true
            unlink(temporaryPath)
        }
    }

    /// Makes the rename itself durable.
    private func syncFolder() {
        let fd = open(Self.folder(of: destination), O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// The folder a path names its file in (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The replaced file's permission bits, else `0666` less the process's umask (what
    /// `open(O_CREAT)` would give; `mkstemp` alone makes `0600`).
    static func modeForNewFile(replacing existing: String?) -> UInt32 {
        var status = stat()
        if let existing, stat(existing, &status) == 0 { return UInt32(status.st_mode) & 0o7777 }
        return 0o666 & ~currentUmask()
    }

    /// The umask, read from `/proc/self/status` (calling `umask` to read it would change it
    /// for every thread for a moment); `022` when unavailable.
    private static func currentUmask() -> UInt32 {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = UInt32(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return value
    }
}
