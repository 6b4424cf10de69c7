import AUCore
import AUJACK
import Glibc

/// Where Apple's device output units play (`AUHOST_DEVICE`): JACK (default), a WAV file, or
/// nowhere; and the five units themselves (Remote I/O, the default and system outputs,
/// AUHAL, voice processing), each under its own description, all on that one device.
/// - Thread: [control]
public enum OutputDevice {
    /// - Thread: [any]
    public enum Kind: Equatable, Sendable {
        case jack
        case file(String)
        case null
    }

    /// Apple's device output units (`auou:SUBTYPE:appl`) and their names.
    /// - Thread: [any]
    public static let units: [(subtype: FourCharCode, name: String)] = [
        ("rioc", "AURemoteIO"), ("def ", "AUDefaultOutput"), ("sys ", "AUSystemOutput"), ("ahal", "AUHAL"), ("vpio", "AUVoiceProcessingIO"),
    ]

    /// Read from the environment each time a unit is made.
    /// - Thread: [control]
    public static var kind: Kind {
        guard let value = getenv("AUHOST_DEVICE").map({ String(cString: $0) }), !value.isEmpty, value != "jack" else { return .jack }
        if value == "null" { return .null }
        if value.hasPrefix("file:") { return .file(String(value.dropFirst(5))) }
        return .jack
    }

    /// A new device output unit under `description`, named `name`: a JACK I/O unit (connected
    /// to the server now, so its buses are at the server's rate), or a paced device that
    /// writes to a file or discards.
    /// - Thread: [control]
    public static func makeUnit(_ description: ComponentDescription, name: String) throws(AudioUnitError) -> AudioUnit {
        switch kind {
        case .jack:
            let unit = JACKIOUnit(description: description, name: name)
            unit.clientName = "AudioToolbox"
            do {
                try unit.open()
            } catch {
                throw AudioUnitError(.failedInitialization, "no JACK server (set AUHOST_DEVICE=file:PATH.wav or null): \(error.message)")
            }
            return unit
        case .file(let path): return PacedDeviceUnit(description: description, name: name, path: path)
        case .null: return PacedDeviceUnit(description: description, name: name, path: nil)
        }
    }
}
