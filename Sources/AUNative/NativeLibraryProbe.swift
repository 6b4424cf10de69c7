import AUCore

/// What the probe child (`auhost probe-library PATH…`) does with one library: loads it in
/// its own process, as the host would — constructors, the entry function, the ABI check,
/// the factory's `init` — and lists its units, so that a library that aborts, crashes or
/// hangs there takes only the child down.
/// - Thread: [control] (the probe child's main thread).
public enum NativeLibraryProbe {
    /// Loads the library at `path` (a real path ``LibraryTrust`` accepted) and reads its units.
    /// - Thread: [control]
    public static func probe(_ path: String) -> ProbeVerdict {
        switch NativeLibrary.load(path, from: path) {
        case .notAUnitLibrary(let message): return ProbeVerdict(outcome: .notAUnitLibrary, reason: message)
        case .failed(let message): return ProbeVerdict(outcome: .fails, reason: message)
        case .loaded(let library):
            if let refusal = library.units().refusal { return ProbeVerdict(outcome: .fails, reason: refusal) }
            return ProbeVerdict(outcome: .works)
        }
    }
}
