import AUCore
import CAUPluginABI

/// One loaded native unit library: its entry table, checked for the ABI version before
/// anything else is read. Never unloaded (opened with RTLD_NODELETE and never closed).
/// - Thread: [control]
public final class NativeLibrary: @unchecked Sendable {
    /// The library file, as found on the search path.
    public let path: String
    let entry: UnsafePointer<auhost_plugin_entry_t>
    /// The ABI version the library was built for (AUHOST_PLUGIN_ABI_MINIMUM_VERSION up to
    /// AUHOST_PLUGIN_ABI_VERSION): a unit's `get_extension` is read from version 2 on.
    let abiVersion: UInt32

    private init(path: String, entry: UnsafePointer<auhost_plugin_entry_t>, abiVersion: UInt32) {
        self.path = path
        self.entry = entry
        self.abiVersion = abiVersion
    }

    /// The outcome of trying to load one file.
    enum Outcome {
        case loaded(NativeLibrary)
        /// Not a native unit library at all (no entry symbol); worth a problem outside the build folder.
        case notAUnitLibrary(String)
        case failed(String)
    }

    /// Opens `resolved` (the real path of `path`, as ``LibraryTrust`` checked it), finds the
    /// entry symbol, checks the ABI version, then runs the factory's `init` with `path`.
    /// Each failure is one message (the caller names the file).
    static func load(_ path: String, from resolved: String) -> Outcome {
        let handle: OpaquePointer
        switch DynamicLinker.open(resolved) {
        case .success(let opened): handle = opened
        case .failure(let error): return .failed("cannot be loaded: \(error.message)")
        }
        guard let symbol = DynamicLinker.symbol(AUHOST_PLUGIN_ENTRY_SYMBOL, in: handle) else {
            return .notAUnitLibrary("has no '\(AUHOST_PLUGIN_ENTRY_SYMBOL)' symbol: not an AUHost native unit library")
        }
        let function = unsafeBitCast(symbol, to: auhost_plugin_entry_function.self)
        guard let entry = function() else {
            return .failed("its \(AUHOST_PLUGIN_ENTRY_SYMBOL)() returned NULL")
        }
        // The version is the first field of every ABI version's table: read it alone first.
        let version = UnsafeRawPointer(entry).load(as: UInt32.self)
        guard (AUHOST_PLUGIN_ABI_MINIMUM_VERSION...AUHOST_PLUGIN_ABI_VERSION).contains(version) else {
            return .failed("is built for native unit ABI version \(version); this host loads versions \(AUHOST_PLUGIN_ABI_MINIMUM_VERSION) to \(AUHOST_PLUGIN_ABI_VERSION) only (rebuild it against this AUHost's SDK)")
        }
        guard let initialize = entry.pointee.`init`, entry.pointee.unit_count != nil, entry.pointee.unit_description != nil,
            entry.pointee.create_unit != nil
        else {
            return .failed("its entry table lacks a function (init, unit_count, unit_description or create_unit)")
        }
        var message = [CChar](repeating: 0, count: 512)
        let initialized = path.withCString { cPath in
            message.withUnsafeMutableBufferPointer { initialize(cPath, $0.baseAddress, UInt32($0.count)) }
        }
        guard initialized else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failed("its factory failed to initialize" + (reason.isEmpty ? "" : ": \(reason)"))
        }
        return .loaded(NativeLibrary(path: path, entry: entry, abiVersion: version))
    }

    /// One unit the library offers, copied into Swift values.
    struct UnitEntry {
        var index: UInt32
        var description: ComponentDescription
        var name: String
        var manufacturerName: String
        var version: String
        var category: String
        var inputChannels: [Int]
        var outputChannels: [Int]
    }

    /// The most units one library may offer (a factory reporting more is refused whole).
    public static let maximumUnitCount: UInt32 = 1024

    /// The units the factory lists and a message for each description it could not give;
    /// or, for a count over ``maximumUnitCount``, no unit and the `refusal`. The count is
    /// read once: a factory whose `unit_count` answers differently on a later call (the
    /// probe child's call, then this process's) is held to the answer that was checked.
    func units() -> (units: [UnitEntry], problems: [String], refusal: String?) {
        let count = entry.pointee.unit_count!()
        guard count <= Self.maximumUnitCount else {
            return ([], [], "its factory reports \(count) units; a library may offer at most \(Self.maximumUnitCount)")
        }
        var units: [UnitEntry] = []
        var problems: [String] = []
        for index in 0..<count {
            guard let description = entry.pointee.unit_description!(index)?.pointee else {
                problems.append("its factory gave no description for unit \(index) of \(count)")
                continue
            }
            guard description.input_bus_count <= AUHOST_MAX_BUSES, description.output_bus_count <= AUHOST_MAX_BUSES,
                let name = description.name
            else {
                problems.append("unit \(index) of \(count) has a malformed description (no name, or more than \(AUHOST_MAX_BUSES) buses)")
                continue
            }
            func channels(_ tuple: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ count: UInt32) -> [Int] {
                withUnsafeBytes(of: tuple) { Array($0.bindMemory(to: UInt32.self).prefix(Int(count))).map(Int.init) }
            }
            units.append(UnitEntry(
                index: index,
                description: ComponentDescription(
                    type: FourCharCode(rawValue: description.type), subtype: FourCharCode(rawValue: description.subtype),
                    manufacturer: FourCharCode(rawValue: description.manufacturer)),
                name: String(cString: name),
                manufacturerName: description.manufacturer_name.map { String(cString: $0) } ?? "",
                version: description.version.map { String(cString: $0) } ?? "",
                category: description.category.map { String(cString: $0) } ?? "",
                inputChannels: channels(description.input_channels, description.input_bus_count),
                outputChannels: channels(description.output_channels, description.output_bus_count)))
        }
        return (units, problems, nil)
    }

    /// A new instance of unit `index`, or nil when the factory fails.
    func createUnit(_ index: UInt32) -> UnsafePointer<auhost_unit>? {
        "AUHost".withCString { name in
            "0.1.0".withCString { version in
                var host = auhost_host_info(abi_version: AUHOST_PLUGIN_ABI_VERSION, name: name, version: version)
                return entry.pointee.create_unit!(index, &host)
            }
        }
    }
}
