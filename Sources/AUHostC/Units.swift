import AUHost
import Foundation
import Synchronization

/// The registry every chain of the C API resolves units in, discovered on first use.
enum SharedRegistry {
    private static let registry = Mutex<ComponentRegistry?>(nil)

    static var current: ComponentRegistry {
        registry.withLock { registry in
            if let registry { return registry }
            let made = HostRegistry.make()
            registry = made
            return made
        }
    }
}

/// `auhost_units_json`: the units whose name, identifier or codes contain `text` (NULL:
/// every unit) and whose type is `type` (NULL: any), as `auhost list TEXT --type TYPE --json`
/// prints them.
/// - Thread: [control]
@_cdecl("auhost_units_json")
public func auhost_units_json(
    _ text: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> UnsafeMutablePointer<CChar>? {
    var search = ComponentDescription(type: .wildcard, subtype: .wildcard, manufacturer: .wildcard)
    if let type {
        guard let code = FourCharCode(parsing: String(cString: type)) else {
            report("type '\(String(cString: type))': expected a code of 1 to 4 characters (aufx, aumu, aumi, ...)", to: error)
            return nil
        }
        search.type = code
    }
    let searchText = text.map { String(cString: $0) } ?? ""
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
        let units = SharedRegistry.current.components(matching: search).filter { $0.matches(searchText: searchText) }.map { UnitSummary($0) }
        return cString(String(decoding: try encoder.encode(units), as: UTF8.self))
    } catch let failure {
        report("could not encode the units: \(failure)", to: error)
        return nil
    }
}
