import AUCore

/// Finds native unit libraries on the search path and offers their units. Each library is
/// loaded once, from its real path, after ``LibraryTrust`` accepts that path and every
/// folder above it; it is checked for the ABI version; a library
/// that fails gives one ``DiscoveryProblem`` naming the file, and the others still load.
/// A unit description offered twice keeps the first library's unit.
/// - Thread: control.
public struct NativeProvider: ComponentProvider {
    public let searchPath: PluginSearchPath

    /// A provider over the standard search path (see ``PluginSearchPath/standard()``).
    public init(searchPath: PluginSearchPath = .standard()) {
        self.searchPath = searchPath
    }

    public var format: ComponentFormat { .native }

    public func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
        var components: [Component] = []
        var problems: [DiscoveryProblem] = []
        var loadedPaths: Set<String> = []
        var owners: [ComponentDescription: String] = [:]
        for folder in searchPath.folders {
            guard let status = DynamicLinker.status(folder.path), status.isDirectory else { continue }
            for name in DynamicLinker.entries(of: folder.path) where name.hasSuffix(".so") {
                let path = folder.path.hasSuffix("/") ? folder.path + name : folder.path + "/" + name
                let key = DynamicLinker.realPath(path) ?? path
                guard loadedPaths.insert(key).inserted else { continue }
                func problem(_ message: String) {
                    problems.append(DiscoveryProblem(format: .native, location: path, message: message))
                }
                let resolved: String
                switch LibraryTrust.check(path) {
                case .success(let trusted): resolved = trusted
                case .failure(let refusal):
                    problem(refusal.message)
                    continue
                }
                let library: NativeLibrary
                switch NativeLibrary.load(path, from: resolved) {
                case .loaded(let loaded): library = loaded
                case .notAUnitLibrary(let message):
                    if !folder.isBuildFolder { problem(message) }
                    continue
                case .failed(let message):
                    problem(message)
                    continue
                }
                let (units, unitProblems) = library.units()
                unitProblems.forEach(problem)
                for unit in units {
                    if let owner = owners[unit.description] {
                        problem("\(unit.description) (\(unit.name)) is skipped: \(owner) already provides it")
                        continue
                    }
                    owners[unit.description] = path
                    components.append(Self.component(unit, in: library))
                }
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
