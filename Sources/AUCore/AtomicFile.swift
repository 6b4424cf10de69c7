import Foundation
import Synchronization

/// A file that appears at its destination only when complete: the one temporary-file-then-
/// rename writer behind audio output files (AUFiles) and saved presets (AUPresets).
///
/// The bytes go to an unnamed file in the destination's own folder (`O_TMPFILE`), given its
/// name by ``commit()`` (`linkat` of `/proc/self/fd/N`): a process killed even by SIGKILL
/// leaves nothing behind. Where the file system refuses unnamed files, they go to a hidden
/// temporary file `.<name>.auhost-<pid>-XXXXXX` (`mkstemp`) instead, and the first writer
/// into that folder in a later process deletes those whose process is gone. Either way the file stays on the
/// destination's file system, so the final `rename` or `link` is atomic.
/// ``commit()`` flushes the file to disk, gives it the mode a new file would have (or the
/// replaced file's mode), moves it into place and flushes the folder; ``discard()`` (and
/// `deinit`, when neither ran) deletes it. Until then an existing file at the destination is
/// never touched; without `overwrite` it is never replaced at all (the final step is `link`,
/// which fails if the name exists, with no window between the check and the write).
/// Whatever `overwrite` says, it never replaces what is not a regular file (a device such
/// as `/dev/null`, a FIFO, a socket) nor any of the `inputs` it is given (compared by
/// device and inode, so another spelling or a link of an input is caught too).
/// - Thread: [control]; one file is used by one thread at a time.
public final class AtomicFile {
    /// The temporary file's descriptor, open for writing until commit or discard.
    public let descriptor: Int32
    /// The path the file appears at on ``commit()``.
    private let destination: String
    /// The temporary file's path, beside the destination; nil while it is unnamed.
    private var temporaryPath: String?
    /// Whether ``commit()`` replaces a file already at the destination.
    private let overwrite: Bool
    private var isOpen = true
    private var isDone = false

    /// Checks the destination and creates the temporary file; nothing is written at the
    /// destination. `inputs` are the files the caller reads (a preset, an input file).
    /// - Thread: [control]
    public convenience init(destination: String, overwrite: Bool, inputs: [String] = []) throws(AtomicFileFailure) {
        try self.init(destination: destination, overwrite: overwrite, inputs: inputs, temporary: .unnamedWhereSupported)
    }

    /// The public initializer with the kind of temporary file chosen: `.named` is the
    /// fallback taken where the file system refuses unnamed files (how tests reach it).
    /// - Thread: [control]
    init(destination: String, overwrite: Bool, inputs: [String], temporary: TemporaryKind) throws(AtomicFileFailure) {
        guard !destination.isEmpty, destination.utf8.last != UInt8(ascii: "/") else { throw .notAFileName }
        let folder = Self.folder(of: destination)
        guard Self.isDirectory(folder) else { throw .folderMissing(folder, exists: Self.exists(folder)) }
        switch NodeKind(path: destination) {
        case .missing: break
        case .folder: throw .destinationIsAFolder
        case .regularFile:
            if let input = inputs.first(where: { Self.isSameFile($0, destination) }) { throw .destinationIsAnInput(input) }
            if !overwrite { throw .destinationExists }
        case let kind: throw .notARegularFile(kind)
        }
        Self.removeStaleTemporaries(in: folder)
        // Not inherited by a child process (a probe, Graphviz) started while it is open.
        let unnamed = temporary == .unnamedWhereSupported && access("/proc/self/fd", X_OK) == 0 ? open(folder, Self.unnamedFileFlags | O_RDWR | O_CLOEXEC, 0o600) : -1
        if unnamed >= 0 {
            descriptor = unnamed
            temporaryPath = nil
        } else {
            var template = Array(Self.temporaryName(for: destination, suffix: "XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw .cannotCreateTemporary(folder, errno: errno) }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            descriptor = fd
            temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        self.destination = destination
        self.overwrite = overwrite
    }

    deinit { if !isDone { discard() } }

    /// The temporary file an ``AtomicFile`` writes to.
    /// - Thread: [any]
    enum TemporaryKind {
        /// An unnamed file (`O_TMPFILE`), or a named one where the file system refuses it.
        case unnamedWhereSupported
        /// Always a named file, `.<name>.auhost-<pid>-XXXXXX` (`mkstemp`).
        case named
    }

    /// Writes `data` whole to the temporary file (retrying interrupted and short writes).
    /// On failure the temporary file is deleted.
    /// - Thread: [control]
    public func write(_ data: Data) throws(AtomicFileFailure) {
        precondition(isOpen, "write after commit or discard")
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return nil
        }
        if let failure {
            discard()
            throw .cannotWrite(errno: failure)
        }
    }

    /// Flushes, closes and moves the temporary file into place. On failure the temporary
    /// file is deleted and the destination is as it was.
    /// - Thread: [control]
    public func commit() throws(AtomicFileFailure) {
        precondition(!isDone, "commit after commit or discard")
        func fail(_ failure: AtomicFileFailure) -> AtomicFileFailure {
            discard()
            return failure
        }
        guard fsync(descriptor) == 0 else { throw fail(.cannotFlush(errno: errno)) }
        _ = fchmod(descriptor, mode_t(Self.modeForNewFile(replacing: overwrite ? destination : nil)))
        if temporaryPath == nil {
            // The unnamed file gets its name: the destination itself without overwrite (the
            // link fails if the name exists), else a hidden one renamed over it below.
            let name = overwrite ? Self.temporaryName(for: destination, suffix: String(UInt32.random(in: 0...UInt32.max), radix: 36)) : destination
            guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 else {
                let linkError = errno
                throw fail(linkError == EEXIST && !overwrite ? .destinationAppeared : .cannotMoveIntoPlace(errno: linkError))
            }
            if !overwrite {
                isOpen = false
                isDone = true
                guard close(descriptor) == 0 else { throw .cannotClose(errno: errno) }
                syncFolder()
                return
            }
            temporaryPath = name
        }
        guard let temporaryPath else { preconditionFailure("a named temporary file") }
        isOpen = false
        guard close(descriptor) == 0 else { throw fail(.cannotClose(errno: errno)) }
        if overwrite {
            // What appeared since `init` is not replaced unless it is a regular file.
            let kind = NodeKind(path: destination)
            guard kind == .missing || kind == .regularFile else { throw fail(.notARegularFile(kind)) }
            guard rename(temporaryPath, destination) == 0 else { throw fail(.cannotMoveIntoPlace(errno: errno)) }
        } else if link(temporaryPath, destination) == 0 {
            unlink(temporaryPath)
        } else {
            let linkError = errno
            if linkError == EEXIST { throw fail(.destinationAppeared) }
            // A file system without hard links: check, then rename (not atomic against a
            // racing writer, which the link above is).
            guard linkError == EPERM || linkError == ENOTSUP || linkError == EOPNOTSUPP || linkError == EMLINK else {
                throw fail(.cannotMoveIntoPlace(errno: linkError))
            }
            guard !Self.exists(destination) else { throw fail(.destinationAppeared) }
            guard rename(temporaryPath, destination) == 0 else { throw fail(.cannotMoveIntoPlace(errno: errno)) }
        }
        isDone = true
        syncFolder()
    }

    /// Deletes the temporary file; the destination is untouched.
    /// - Thread: [control]
    public func discard() {
        if isOpen {
            isOpen = false
            close(descriptor)
        }
        if !isDone {
            isDone = true
            if let temporaryPath { unlink(temporaryPath) }
        }
    }

    /// `O_TMPFILE` (Swift does not import the macro): `__O_TMPFILE | O_DIRECTORY`, with
    /// `__O_TMPFILE` as Linux defines it on x86-64 and ARM.
    private static let unnamedFileFlags: Int32 = 0o20_000_000 | O_DIRECTORY

    /// `<folder>/.<name>.auhost-<pid>-<suffix>`: a named temporary file of this process.
    private static func temporaryName(for destination: String, suffix: String) -> String {
        let name = destination.utf8.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) } ?? destination
        return "\(folder(of: destination))/.\(name).auhost-\(getpid())-\(suffix)"
    }

    /// The folders this process has swept of stale temporary files.
    private static let sweptFolders = Mutex<Set<String>>([])

    /// Deletes the named temporary files in `folder` left by processes that are gone
    /// (killed before they could clean up): `.<name>.auhost-<pid>-XXXXXX`, regular files
    /// whose pid no longer exists. Once per folder and process: a batch writing thousands of
    /// files into one folder would otherwise list the whole folder for each.
    private static func removeStaleTemporaries(in folder: String) {
        guard sweptFolders.withLock({ $0.insert(folder).inserted }), let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".") {
            guard let marker = name.range(of: ".auhost-", options: .backwards),
                  let pid = name[marker.upperBound...].split(separator: "-").first.flatMap({ Int32($0) }), pid > 0,
                  kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            var status = stat()
            let path = "\(folder)/\(name)"
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { unlink(path) }
        }
    }

    /// Makes the rename itself durable.
    private func syncFolder() {
        let fd = open(Self.folder(of: destination), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// The folder a path names its file in (`.` for a bare name). The path is bytes, as the
    /// kernel reads it: a name that starts with a combining mark (`/folder/\u{301}`) makes
    /// one Character of the slash and the mark, which a Character search would step over.
    private static func folder(of path: String) -> String {
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == bytes.startIndex ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    }

    /// The replaced file's permission bits, else `0666` less the process's umask (what
    /// `open(O_CREAT)` would give; `mkstemp` alone makes `0600`).
    private static func modeForNewFile(replacing existing: String?) -> UInt32 {
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

    /// Whether two paths name one file (device and inode, links followed).
    private static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
