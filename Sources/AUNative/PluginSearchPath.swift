/// Where native unit libraries are looked for, in order: each folder of
/// `AUHOST_PLUGIN_PATH` (colon-separated), `~/.local/lib/auhost/plugins`,
/// `/usr/local/lib/auhost/plugins`, and the folder of the running executable — where
/// SwiftPM puts this package's own `lib*.so` products next to `auhost` and the tests.
/// - Thread: [control]
public struct PluginSearchPath: Sendable, Equatable {
    /// One folder to search.
    /// - Thread: [control]
    public struct Folder: Sendable, Equatable {
        public var path: String
        /// The build folder holds other libraries too: those without the entry symbol are
        /// skipped there without a problem being reported.
        public var isBuildFolder: Bool
        /// - Thread: [control]
        public init(path: String, isBuildFolder: Bool = false) {
            self.path = path
            self.isBuildFolder = isBuildFolder
        }
    }

    public var folders: [Folder]

    /// - Thread: [control]
    public init(folders: [Folder]) { self.folders = folders }

    /// Explicit folders only (a test, an application with its own units).
    /// - Thread: [control]
    public init(_ paths: [String]) { folders = paths.map { Folder(path: $0) } }

    /// The environment variable naming extra folders.
    public static let environmentVariable = "AUHOST_PLUGIN_PATH"

    /// The standard search path for this process.
    /// - Thread: [control]
    public static func standard() -> PluginSearchPath {
        var folders: [Folder] = []
        if let extra = DynamicLinker.environment(environmentVariable) {
            folders += extra.split(separator: ":").map { Folder(path: String($0)) }
        }
        if let home = DynamicLinker.environment("HOME"), !home.isEmpty {
            folders.append(Folder(path: home + "/.local/lib/auhost/plugins"))
        }
        folders.append(Folder(path: "/usr/local/lib/auhost/plugins"))
        if let build = executableFolder() { folders.append(Folder(path: build, isBuildFolder: true)) }
        return PluginSearchPath(folders: folders)
    }

    /// The folder of the running executable (`/proc/self/exe`).
    /// - Thread: [control]
    public static func executableFolder() -> String? {
        guard let executable = DynamicLinker.realPath("/proc/self/exe"), let slash = executable.lastIndex(of: "/") else { return nil }
        return slash == executable.startIndex ? "/" : String(executable[..<slash])
    }
}
