import AUHost
import Foundation

/// Writes `message` into a caller's `char **error` (a `malloc`ed copy, freed with
/// `auhost_free`); nothing when the caller passed NULL.
func report(_ message: String, to error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
    error?.pointee = strdup(message)
}

/// A `malloc`ed copy of `text` for the caller, freed with `auhost_free`.
func cString(_ text: String) -> UnsafeMutablePointer<CChar>? { strdup(text) }

/// Runs `body`, turning an ``AudioUnitError`` into the caller's error string and -1.
func status(
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ body: () throws(AudioUnitError) -> Void
) -> Int32 {
    do throws(AudioUnitError) {
        try body()
        return 0
    } catch let failure {
        report(failure.message, to: error)
        return -1
    }
}

/// The caller's planar channels as ``AudioBuffers`` (the pointer table copied into
/// `table`, which must hold `channels` entries).
func planar(
    _ pointers: UnsafePointer<UnsafePointer<Float>?>, channels: Int, frames: Int,
    table: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
) -> AudioBuffers? {
    for channel in 0..<channels {
        guard let pointer = pointers[channel] else { return nil }
        table[channel] = UnsafeMutablePointer(mutating: pointer)
    }
    return AudioBuffers(channelPointers: table, frameCount: frames)
}

/// `auhost_free`: frees a string or buffer the library returned.
/// - Thread: [any]
@_cdecl("auhost_free")
public func auhost_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}

/// `auhost_api_version`: the version of include/auhost.h this library implements.
/// - Thread: [any]
@_cdecl("auhost_api_version")
public func auhost_api_version() -> Int32 { 7 }
