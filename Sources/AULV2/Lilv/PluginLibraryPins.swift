import Glibc
import Synchronization

/// Keeps the library of every LV2 plugin instantiated in this process loaded for the
/// process's life, once asked (``enable()``): lilv closes a plugin's library with its last
/// instance, and with it the libraries it pulled in (x42 dpl: cairo, X11, fontconfig), so a
/// process that makes and frees the same plugins file after file (a unit-host child in a
/// batch) loaded them all again for every file. `RTLD_NODELETE` on the loaded library keeps
/// it; the host process, whose loaded preset keeps its instances, does not ask.
/// - Thread: [control]
public enum PluginLibraryPins {
    private static let isEnabled = Atomic<Bool>(false)
    private static let pinned = Mutex<Set<String>>([])

    /// Keeps every plugin library loaded from the next instance on.
    /// - Thread: [control]
    public static func enable() { isEnabled.store(true, ordering: .relaxed) }

    /// Keeps the loaded library at `path` loaded, when enabled.
    /// - Thread: [control]
    static func pin(_ path: @autoclosure () -> String?) {
        guard isEnabled.load(ordering: .relaxed), let path = path() else { return }
        pinned.withLock { paths in
            guard !paths.contains(path), dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != nil else { return }
            paths.insert(path)
        }
    }
}
