import Glibc

/// The C calls the loader makes, in one place: the dynamic linker, file status, the
/// user's identity, the running executable's path. Everything else calls these.
/// - Thread: [control]
enum DynamicLinker {
    /// The flags every native unit library is opened with: resolve every symbol now, keep
    /// them out of the global namespace, and never unmap the library.
    static let openFlags = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE

    /// Opens a library, or returns the dynamic linker's reason.
    static func open(_ path: String) -> Result<OpaquePointer, LinkerError> {
        _ = dlerror()
        guard let handle = dlopen(path, openFlags) else { return .failure(LinkerError(message: lastError())) }
        return .success(OpaquePointer(handle))
    }

    /// The address of a symbol, or nil.
    static func symbol(_ name: String, in handle: OpaquePointer) -> UnsafeMutableRawPointer? {
        dlsym(UnsafeMutableRawPointer(handle), name)
    }

    private static func lastError() -> String {
        guard let text = dlerror() else { return "unknown dynamic linker error" }
        return String(cString: text)
    }

    /// Owner, mode and kind of a file (following symbolic links), or nil when it does not exist.
    static func status(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(owner: info.st_uid, mode: info.st_mode)
    }

    /// The real user ID of this process.
    static var currentUser: UInt32 { getuid() }

    /// The canonical absolute path, symbolic links resolved, or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The names in a directory (not `.` and `..`), sorted; empty when it cannot be read.
    static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether this process may execute the file at `path`.
    static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// An environment variable, or nil.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Why the dynamic linker refused a library.
struct LinkerError: Error {
    var message: String
}

/// What the loader needs to know about a file or folder.
struct FileStatus {
    var owner: UInt32
    var mode: UInt32

    var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    /// Anyone may write it (`o+w`).
    var isWorldWritable: Bool { mode & UInt32(S_IWOTH) != 0 }
    /// Its group may write it (`g+w`).
    var isGroupWritable: Bool { mode & UInt32(S_IWGRP) != 0 }
    /// The sticky bit (`+t`): in such a folder only an entry's owner (or root) may rename or remove it.
    var isSticky: Bool { mode & UInt32(S_ISVTX) != 0 }
}
