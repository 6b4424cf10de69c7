/// Where native unit libraries are looked for, in order: each folder of
/// `AUHOST_PLUGIN_PATH` (colon-separated), `~/.local/lib/auhost/plugins`,
/// `PREFIX/lib/auhost/plugins` when the running executable is an installed one in `PREFIX/bin`
/// (where `make install` puts the native units), `/usr/local/lib/auhost/plugins`, and the
/// folder of the running executable — where SwiftPM puts this package's own `lib*.so`
/// products next to `auhost` and the tests.
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
        let installed = installPrefix().map { $0 + "/lib/auhost/plugins" }
        if let installed, installed != defaultInstalledFolder { folders.append(Folder(path: installed)) }
        folders.append(Folder(path: defaultInstalledFolder))
        if let build = executableFolder() { folders.append(Folder(path: build, isBuildFolder: true)) }
        return PluginSearchPath(folders: folders)
    }

    /// Where `make install` with its default prefix puts the native units.
    public static let defaultInstalledFolder = "/usr/local/lib/auhost/plugins"

    /// `PREFIX` when the running executable is in a folder `PREFIX/bin` (an installed
    /// `auhost`, whose units are in `PREFIX/lib/auhost/plugins` and SDK in
    /// `PREFIX/share/auhost/sdk`); `nil` for a build folder.
    /// - Thread: [control]
    public static func installPrefix() -> String? {
        guard let folder = executableFolder(), folder.hasSuffix("/bin") else { return nil }
        let prefix = String(folder.dropLast(4))
        return prefix.isEmpty ? "/" : prefix
    }

    /// The folder of the running executable (`/proc/self/exe`).
    /// - Thread: [control]
    public static func executableFolder() -> String? {
        guard let executable = DynamicLinker.realPath("/proc/self/exe"), let slash = executable.lastIndex(of: "/") else { return nil }
        return slash == executable.startIndex ? "/" : String(executable[..<slash])
    }
}
