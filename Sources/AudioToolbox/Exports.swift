// The AudioToolbox module: Apple's C API (CAudioToolbox, the headers in include/) for Swift
// code written for Apple's SDK, and libAudioToolbox.so's implementation of it over AUHost.
// The engine is imported internally, so `AudioUnit` here is Apple's C type for clients.
@_exported import CAudioToolbox
internal import AUCore
internal import AUEngine

/// AUHost's unit class; `AudioUnit` alone is Apple's C handle type in this module.
typealias EngineUnit = AUCore.AudioUnit

/// The OSStatus of an engine error (the engine's codes are Core Audio's).
func status(_ error: AudioUnitError) -> OSStatus { error.status }

/// Runs `body`, turning an engine error into its OSStatus.
func catching(_ body: () throws(AudioUnitError) -> Void) -> OSStatus {
    do {
        try body()
        return noErr
    } catch {
        return error.status
    }
}

extension ComponentDescription {
    init(_ c: AudioComponentDescription) {
        self.init(
            type: FourCharCode(rawValue: c.componentType), subtype: FourCharCode(rawValue: c.componentSubType),
            manufacturer: FourCharCode(rawValue: c.componentManufacturer))
    }
}
