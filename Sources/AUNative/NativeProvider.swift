import AUCore

/// Finds native unit libraries on the search path and offers their units. Each library is
/// loaded once, from its real path, after ``LibraryTrust`` accepts that path and every
/// folder above it, and after a probe child (``NativeProbeRunner``) loaded it without
/// crashing, hanging or reporting more than ``NativeLibrary/maximumUnitCount`` units; it is
/// checked for the ABI version. A library that fails gives one ``DiscoveryProblem`` naming
/// the file and why, and the others still load. A unit description offered twice keeps the
/// first library's unit.
///
/// The probe child loads a library exactly as this process then does (constructors, entry
/// function, ABI check, `init`, unit count and descriptions), and this process checks all
/// of it again, so a library that answers differently on its second load (a counter in a
/// file, the time, anything the child did not share) is still refused, naming the file,
/// when it fails `init`, reports another ABI version or too many units. What no check can
/// catch is a constructor or `init` that aborts, crashes or hangs only on the in-process
/// load: ``NativeLoadGuard`` marks each library while it loads here, and the next discovery
/// records one whose process never finished loading it as failing (until it changes), so
/// it takes down one command, not every one.
///
/// Without a probe executable (``NativeProbeRunner/standard()`` found none: an application
/// that is not `auhost` and has none beside it nor in `AUHOST_PROBE_EXECUTABLE`), the
/// libraries the trust check accepts are loaded in this process unprobed, as before the
/// probe existed, and one problem says so.
/// - Thread: [control]
public struct NativeProvider: ComponentProvider {
    public let searchPath: PluginSearchPath
    /// The probe run before loading; nil: load in this process without one.
    public let probe: NativeProbeRunner?

    /// A provider over the standard search path (see ``PluginSearchPath/standard()``),
    /// probing with the standard runner when there is one.
    /// - Thread: [control]
    public init(searchPath: PluginSearchPath = .standard(), probe: NativeProbeRunner? = .standard()) {
        self.searchPath = searchPath
        self.probe = probe
    }

    /// - Thread: [control]
    public var format: ComponentFormat { .native }

    /// A library file found on the search path that the trust check accepted.
    private struct Candidate {
        var path: String
        var resolved: String
        var folder: PluginSearchPath.Folder
    }

    /// - Thread: [control]
    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        var problems: [DiscoveryProblem] = []
        var candidates: [Candidate] = []
        var seen: Set<String> = []
        for folder in searchPath.folders {
            guard let status = DynamicLinker.status(folder.path), status.isDirectory else { continue }
            for name in DynamicLinker.entries(of: folder.path) where name.hasSuffix(".so") {
                let path = folder.path.hasSuffix("/") ? folder.path + name : folder.path + "/" + name
                guard seen.insert(DynamicLinker.realPath(path) ?? path).inserted else { continue }
                switch LibraryTrust.check(path) {
                case .success(let resolved): candidates.append(Candidate(path: path, resolved: resolved, folder: folder))
                case .failure(let refusal): problems.append(DiscoveryProblem(format: .native, location: path, message: refusal.message))
                }
            }
        }
        // A library that passed its probe but took down (or hung) the last process that
        // loaded it in-process is recorded as failing before the verdicts are read.
        let loadGuard = probe.map { NativeLoadGuard(cacheFile: $0.cacheFile) }
        loadGuard?.recordUnfinishedLoads()
        let verdicts = probe?.verdicts(candidates.map(\.resolved)) ?? [:]
        if probe == nil, !candidates.isEmpty {
            problems.append(DiscoveryProblem(
                format: .native, location: NativeProbeRunner.standardExecutablePath ?? "auhost",
                message: "no probe executable (auhost) found there nor in \(NativeProbeRunner.executableVariable): native libraries are loaded into this process unprobed, so one that crashes or hangs while loading takes the process with it"))
        }
        var components: [Component] = []
        var owners: [ComponentDescription: String] = [:]
        for candidate in candidates {
            func problem(_ message: String) {
                problems.append(DiscoveryProblem(format: .native, location: candidate.path, message: message))
            }
            if let verdict = verdicts[candidate.resolved], verdict.outcome != .works {
                switch verdict.outcome {
                case .crashed: problem("not loaded: the probe process loading it \(verdict.reason ?? "crashed")")
                case .notAUnitLibrary where candidate.folder.isBuildFolder: break
                default: problem(verdict.reason ?? verdict.outcome.rawValue)
                }
                continue
            }
            let library: NativeLibrary
            loadGuard?.begin(candidate.resolved)
            let outcome = NativeLibrary.load(candidate.path, from: candidate.resolved)
            switch outcome {
            case .loaded(let loaded): library = loaded
            case .notAUnitLibrary(let message):
                loadGuard?.end()
                if !candidate.folder.isBuildFolder { problem(message) }
                continue
            case .failed(let message):
                loadGuard?.end()
                problem(message)
                continue
            }
            let (units, unitProblems, refusal) = library.units()
            loadGuard?.end()
            if let refusal { problem(refusal) }
            unitProblems.forEach(problem)
            for unit in units {
                if let owner = owners[unit.description] {
                    problem("\(unit.description) (\(unit.name)) is skipped: \(owner) already provides it")
                    continue
                }
                owners[unit.description] = candidate.path
                components.append(Self.component(unit, in: library))
            }
        }
        return (components, problems)
    }

    /// The registry entry of one unit of a loaded library.
    static func component(_ unit: NativeLibrary.UnitEntry, in library: NativeLibrary) -> Component {
        Component(
            description: unit.description, name: unit.name, manufacturerName: unit.manufacturerName, version: unit.version,
            format: .native, identifier: "\(library.path)#\(unit.index)", category: unit.category,
            factory: { () throws(AudioUnitError) -> AudioUnit in try NativeUnit(library: library, entry: unit) })
    }
}
