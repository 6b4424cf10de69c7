import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file the safe way: a temporary file beside the target, flushed, then renamed
/// (replacing) or hard-linked (never replacing: the link fails if the name is taken, with
/// no window between the check and the write).
/// - Thread: control.
enum AtomicFile {
    static func write(_ data: Data, to path: String, replacing: Bool) throws(PresetError) {
        func fail(_ kind: PresetProblem.Kind, _ message: String) -> PresetError {
            PresetError([PresetProblem(kind, file: path, path: "", message: message)])
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw fail(.writeFailed, "cannot write: the folder \(quoted(folder, limit: .max)) does not exist")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw fail(.writeFailed, "is a folder; expected a file name to save the preset to")
        }
        if !replacing && FileManager.default.fileExists(atPath: path) {
            throw fail(.fileExists, "already exists; expected a new file name, or --force to replace it")
        }
        let temporary = folder + "/." + url.lastPathComponent + ".tmp-" + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fail(.writeFailed, "cannot write: \(errnoText())") }
        var written = 0
        let status: String? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errnoText()
                }
                written += result
            }
            return fsync(descriptor) == 0 ? nil : errnoText()
        }
        close(descriptor)
        if let status {
            unlink(temporary)
            throw fail(.writeFailed, "cannot write: \(status)")
        }
        defer { unlink(temporary) }
        if replacing {
            guard rename(temporary, path) == 0 else { throw fail(.writeFailed, "cannot move the new file into place: \(errnoText())") }
        } else if link(temporary, path) != 0 {
            if errno == EEXIST { throw fail(.fileExists, "already exists; expected a new file name, or --force to replace it") }
            // Filesystems without hard links: check, then rename (a small window remains).
            guard errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP || errno == EMLINK else {
                throw fail(.writeFailed, "cannot move the new file into place: \(errnoText())")
            }
            if FileManager.default.fileExists(atPath: path) {
                throw fail(.fileExists, "already exists; expected a new file name, or --force to replace it")
            }
            guard rename(temporary, path) == 0 else { throw fail(.writeFailed, "cannot move the new file into place: \(errnoText())") }
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
