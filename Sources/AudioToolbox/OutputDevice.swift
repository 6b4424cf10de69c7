internal import AUCore
internal import AUEngine
internal import AUJACK
import Glibc

/// Where output units play (`AUHOST_DEVICE`): JACK (default), a WAV file, or nowhere.
enum OutputDevice {
    enum Kind: Equatable {
        case jack
        case file(String)
        case null
    }

    /// Read from the environment each time a unit is made.
    static var kind: Kind {
        guard let value = getenv("AUHOST_DEVICE").map({ String(cString: $0) }), !value.isEmpty, value != "jack" else { return .jack }
        if value == "null" { return .null }
        if value.hasPrefix("file:") { return .file(String(value.dropFirst(5))) }
        return .jack
    }

    /// A new device output unit: the JACK I/O unit (connected to the server now), or a
    /// paced device that writes to a file or discards.
    static func makeUnit() throws(AudioUnitError) -> EngineUnit {
        switch kind {
        case .jack:
            let unit = JACKIOUnit()
            unit.clientName = "AudioToolbox"
            do {
                try unit.open()
            } catch {
                throw AudioUnitError(.failedInitialization, "no JACK server (set AUHOST_DEVICE=file:PATH.wav or null): \(error.message)")
            }
            return unit
        case .file(let path): return PacedDeviceUnit(path: path)
        case .null: return PacedDeviceUnit(path: nil)
        }
    }
}
