/// Whether a library file may be loaded into this process, decided on its real path (every
/// symbolic link resolved) as ssh decides on its keys:
///
/// - the file is a regular file, owned by root or by the current user, and writable by no
///   one else (neither its group nor every user);
/// - every folder above it, up to `/`, is owned by root or by the current user and
///   writable by no one else — except a folder owned by root with the sticky bit (like
///   `/tmp`, mode 1777), where no one may rename or remove what another user owns.
///
/// Otherwise someone other than the user (or root) could replace the library, or a folder
/// on its way, with code of their own. A group-writable file or folder is refused even
/// when the group is the user's own: the check does not read group membership.
/// - Thread: [control]
enum LibraryTrust {
    /// Why a library may not be loaded.
    struct Refusal: Error, Equatable {
        var message: String
    }

    /// The owners a library and its folders may have by default: root and the current user.
    static var standardOwners: Set<UInt32> { [0, DynamicLinker.currentUser] }

    /// The library's real path when it may be loaded (load that path, not `path`), else why not.
    static func check(_ path: String, trustedOwners: Set<UInt32> = standardOwners) -> Result<String, Refusal> {
        guard let resolved = DynamicLinker.realPath(path) else {
            return .failure(Refusal(message: "its path cannot be resolved (a missing file or a dangling symbolic link)"))
        }
        guard let status = DynamicLinker.status(resolved) else { return .failure(Refusal(message: "the file cannot be read")) }
        var folders: [(path: String, status: FileStatus)] = []
        for folder in ancestors(of: resolved) {
            guard let folderStatus = DynamicLinker.status(folder) else {
                return .failure(Refusal(message: "its folder \(folder) cannot be read"))
            }
            folders.append((folder, folderStatus))
        }
        if let refusal = refusal(resolved: resolved, named: path, file: status, folders: folders, trustedOwners: trustedOwners) {
            return .failure(refusal)
        }
        return .success(resolved)
    }

    /// The rule itself, on statuses already read: nil when `file` and `folders` (from its own
    /// folder up to `/`) may be trusted. `named` is the path as found, `resolved` its real path.
    static func refusal(
        resolved: String, named: String, file: FileStatus, folders: [(path: String, status: FileStatus)], trustedOwners: Set<UInt32>
    ) -> Refusal? {
        let subject = resolved == named ? "the file" : "the file it links to, \(resolved),"
        guard file.isRegularFile else { return Refusal(message: "\(subject) is not a regular file") }
        if !trustedOwners.contains(file.owner) {
            return Refusal(message: "refused: \(subject) is owned by user \(file.owner), not by \(describe(trustedOwners))")
        }
        if let writers = writers(file) {
            return Refusal(message: "refused: \(subject) is writable by \(writers) (mode \(octal(file.mode)))")
        }
        for (folder, status) in folders {
            let which = folder == folders.first?.path ? "its folder" : "the folder above it"
            if !trustedOwners.contains(status.owner) {
                return Refusal(message: "refused: \(which) \(folder) is owned by user \(status.owner), not by \(describe(trustedOwners)), so that user could replace the library")
            }
            if let writers = writers(status), !(status.isSticky && status.owner == 0) {
                return Refusal(message: "refused: \(which) \(folder) is writable by \(writers) (mode \(octal(status.mode))), so anyone could replace the library")
            }
        }
        return nil
    }

    /// The folders above a real path, nearest first, ending with `/`.
    static func ancestors(of path: String) -> [String] {
        var folders: [String] = []
        var current = Substring(path)
        while let slash = current.lastIndex(of: "/") {
            current = slash == current.startIndex ? "/" : current[..<slash]
            folders.append(String(current))
            if current == "/" { break }
        }
        return folders
    }

    /// Who besides the owner may write: "every user", "its group", or nil.
    private static func writers(_ status: FileStatus) -> String? {
        status.isWorldWritable ? "every user" : status.isGroupWritable ? "its group" : nil
    }

    /// `root or user 1000`.
    private static func describe(_ owners: Set<UInt32>) -> String {
        owners.sorted().map { $0 == 0 ? "root" : "user \($0)" }.joined(separator: " or ")
    }

    private static func octal(_ mode: UInt32) -> String { "0" + String(mode & 0o7777, radix: 8) }
}
