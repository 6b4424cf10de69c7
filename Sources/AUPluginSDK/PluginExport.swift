import CAUPluginABI
import Synchronization

/// Exports a library's units through the C ABI. A library has one line of export code:
///
/// ```swift
/// @_cdecl("auhost_plugin_entry") public func entry() -> UnsafeRawPointer { PluginExport.entry(Gain.self, Delay.self) }
/// ```
///
/// The first call builds the `auhost_plugin_entry_t` table and the unit descriptions; later
/// calls return the same table.
/// - Thread: [control]
public enum PluginExport {
    /// The library's `auhost_plugin_entry_t` table for `units`, as the entry symbol returns it.
    /// - Thread: [control]
    public static func entry(_ units: any PluginUnit.Type...) -> UnsafeRawPointer {
        entry(units)
    }

    /// The same, for a list.
    /// - Thread: [control]
    public static func entry(_ units: [any PluginUnit.Type]) -> UnsafeRawPointer {
        exportLock.withLock { _ in
            if let library = ExportedLibrary.current { return UnsafeRawPointer(library.entry) }
            let library = ExportedLibrary(units: units)
            ExportedLibrary.current = library
            return UnsafeRawPointer(library.entry)
        }
    }

    /// Checks what the units declare: codes, bus counts, parameter IDs and ranges; the
    /// messages name the unit. Empty when all is well.
    /// - Thread: [control]
    public static func problems(in units: [any PluginUnit.Type]) -> [String] {
        var problems: [String] = []
        if units.isEmpty { problems.append("the library exports no unit") }
        var seen: Set<String> = []
        for unit in units {
            let descriptor = unit.descriptor
            let identity = "\(descriptor.type):\(descriptor.subtype):\(descriptor.manufacturer)"
            if !seen.insert(identity).inserted { problems.append("\(identity) is exported twice") }
            if descriptor.inputs.count > Int(AUHOST_MAX_BUSES) || descriptor.outputs.count > Int(AUHOST_MAX_BUSES) {
                problems.append("\(identity) (\(descriptor.name)) has more than \(AUHOST_MAX_BUSES) buses in one direction")
            }
            if (descriptor.inputs + descriptor.outputs).contains(where: { $0 < 1 || $0 > Int(AUHOST_MAX_CHANNELS) }) {
                problems.append("\(identity) (\(descriptor.name)) has a bus with a channel count outside 1...\(AUHOST_MAX_CHANNELS)")
            }
            var ids: Set<UInt32> = []
            for parameter in unit.parameters {
                if !ids.insert(parameter.id).inserted { problems.append("\(identity): parameter ID \(parameter.id) is declared twice") }
                if !(parameter.range.lowerBound.isFinite && parameter.range.upperBound.isFinite) {
                    problems.append("\(identity): parameter '\(parameter.identifier)' has an infinite range")
                }
            }
        }
        return problems
    }
}

/// Serialises the first export of a library.
private let exportLock = Mutex<Void>(())

/// The exported units of this library and their C descriptions: made once, never freed
/// (a native unit library is never unloaded).
/// - Thread: [control] for creation; read-only afterwards (any thread).
final class ExportedLibrary: @unchecked Sendable {
    nonisolated(unsafe) static var current: ExportedLibrary?

    let units: [any PluginUnit.Type]
    let descriptions: UnsafeMutablePointer<auhost_unit_description>
    let entry: UnsafeMutablePointer<auhost_plugin_entry_t>

    init(units: [any PluginUnit.Type]) {
        self.units = units
        descriptions = .allocate(capacity: max(1, units.count))
        for (index, unit) in units.enumerated() {
            let descriptor = unit.descriptor
            var description = auhost_unit_description()
            description.type = descriptor.type.rawValue
            description.subtype = descriptor.subtype.rawValue
            description.manufacturer = descriptor.manufacturer.rawValue
            description.name = UnsafePointer(CStrings.copy(descriptor.name))
            description.manufacturer_name = UnsafePointer(CStrings.copy(descriptor.manufacturerName))
            description.version = UnsafePointer(CStrings.copy(descriptor.version))
            description.category = UnsafePointer(CStrings.copy(descriptor.category))
            description.input_bus_count = UInt32(min(descriptor.inputs.count, Int(AUHOST_MAX_BUSES)))
            description.output_bus_count = UInt32(min(descriptor.outputs.count, Int(AUHOST_MAX_BUSES)))
            withUnsafeMutableBytes(of: &description.input_channels) { raw in
                for (bus, channels) in descriptor.inputs.prefix(Int(AUHOST_MAX_BUSES)).enumerated() { raw.storeBytes(of: UInt32(clamping: channels), toByteOffset: bus * 4, as: UInt32.self) }
            }
            withUnsafeMutableBytes(of: &description.output_channels) { raw in
                for (bus, channels) in descriptor.outputs.prefix(Int(AUHOST_MAX_BUSES)).enumerated() { raw.storeBytes(of: UInt32(clamping: channels), toByteOffset: bus * 4, as: UInt32.self) }
            }
            (descriptions + index).initialize(to: description)
        }
        entry = .allocate(capacity: 1)
        entry.initialize(to: auhost_plugin_entry_t(
            abi_version: AUHOST_PLUGIN_ABI_VERSION, reserved: 0,
            init: { _, message, capacity in
                let problems = PluginExport.problems(in: ExportedLibrary.current?.units ?? [])
                guard problems.isEmpty else {
                    CStrings.write(problems.joined(separator: "; "), to: message, capacity: capacity)
                    return false
                }
                return true
            },
            unit_count: { UInt32(ExportedLibrary.current?.units.count ?? 0) },
            unit_description: { index in
                guard let library = ExportedLibrary.current, Int(index) < library.units.count else { return nil }
                return UnsafePointer(library.descriptions + Int(index))
            },
            create_unit: { index, _ in
                guard let library = ExportedLibrary.current, Int(index) < library.units.count else { return nil }
                return PluginTable.attach(library.units[Int(index)].makeInstance())
            }))
    }
}
