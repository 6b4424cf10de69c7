import AUCore
import Foundation

/// The native library this process is loading into itself, written down while it loads:
/// a file `native-loading-<pid>` beside the probe cache holds the library's real path from
/// just before its constructors run to just after its units are listed. A library that
/// passed its probe can still abort, crash or hang on this second load (it may count its
/// loads, or look at something the probe child did not share); nothing in the process can
/// survive that, but the file survives the process. The next discovery
/// (``recordUnfinishedLoads()``) finds the files of processes that are gone, records each
/// library named there as failing in the probe cache, keyed like a probe's verdict by the
/// library's size and modification time (so a rebuilt library is probed and loaded again),
/// and deletes the files. A process stopped during the load on purpose (Ctrl-C) marks the
/// library the same way; deleting the verdict from the cache file clears it.
/// - Thread: [control]
struct NativeLoadGuard {
    /// The folder of the probe cache, where the marks are written.
    let folder: URL
    let cacheFile: URL

    init(cacheFile: URL) {
        self.cacheFile = cacheFile
        folder = cacheFile.deletingLastPathComponent()
    }

    private static let prefix = "native-loading-"

    private var mark: URL { folder.appendingPathComponent("\(Self.prefix)\(getpid())") }

    /// Writes this process's mark: it is loading `resolved`. Not flushed to disk: a crash
    /// of the process leaves the file (only a crash of the machine would lose it). Written
    /// with `write(2)`: Foundation's `Data.write(to:)` flushes each file, which made every
    /// start of `auhost` wait for one flush per native library (8 here, 3 to 4 ms).
    func begin(_ resolved: String) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(mark.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = Array(resolved.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Deletes this process's mark: the load finished.
    func end() {
        unlink(mark.path)
    }

    /// Records the libraries in the marks of processes that are gone as failing, then deletes
    /// those marks.
    func recordUnfinishedLoads() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        var cache: ProbeCache?
        for name in names where name.hasPrefix(Self.prefix) {
            guard let pid = Int32(name.dropFirst(Self.prefix.count)), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            let file = folder.appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: file.path), !data.isEmpty {
                let library = String(decoding: data, as: UTF8.self)
                if cache == nil { cache = ProbeCache(file: cacheFile) }
                cache?.record(
                    ProbeVerdict(
                        outcome: .fails,
                        reason: "not loaded: it passed its probe, but the auhost process (pid \(pid)) that then loaded it in-process never finished loading it (the library crashed, hung or the process was stopped); it is skipped until it changes"),
                    for: library, binaryPath: library)
            }
            unlink(file.path)
        }
        try? cache?.save()
    }
}
