/// Whether a library file may be loaded into this process: it must be a regular file,
/// owned by root or by the current user, not writable by everyone, and in a folder that
/// is not writable by everyone either (anyone could swap the file for another).
/// - Thread: control.
enum LibraryTrust {
    /// Nil when the file may be loaded, else why not.
    static func refusal(path: String, folder: String, currentUser: UInt32 = DynamicLinker.currentUser) -> String? {
        guard let folderStatus = DynamicLinker.status(folder) else { return "its folder \(folder) cannot be read" }
        if folderStatus.isWorldWritable {
            return "refused: its folder \(folder) is writable by every user (mode \(octal(folderStatus.mode))), so anyone could replace the library"
        }
        guard let status = DynamicLinker.status(path) else { return "the file cannot be read" }
        guard status.isRegularFile else { return "not a regular file" }
        if status.owner != 0 && status.owner != currentUser {
            return "refused: the file is owned by user \(status.owner), not by root or the current user (\(currentUser))"
        }
        if status.isWorldWritable {
            return "refused: the file is writable by every user (mode \(octal(status.mode)))"
        }
        return nil
    }

    private static func octal(_ mode: UInt32) -> String { "0" + String(mode & 0o7777, radix: 8) }
}
