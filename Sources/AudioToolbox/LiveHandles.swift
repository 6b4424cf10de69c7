import Synchronization
internal import AUCore

/// A table of the live handles of one opaque C type (MusicSequence, MusicTrack, MusicPlayer,
/// MusicEventIterator, ExtAudioFileRef…): the table holds each handle, and the C pointer is
/// the handle's address. A stale or foreign pointer is not in the table, so it gets an
/// OSStatus instead of a crash.
final class LiveHandles<Handle: AnyObject & Sendable>: Sendable {
    private let table = Mutex<[UInt: Handle]>([:])

    static func key(_ pointer: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) }

    /// Holds `handle` and returns its C pointer.
    func register(_ handle: Handle) -> OpaquePointer {
        let pointer = OpaquePointer(Unmanaged.passUnretained(handle).toOpaque())
        table.withLock { $0[Self.key(pointer)] = handle }
        return pointer
    }

    /// Lets `handle` go: its pointer is refused from now on.
    func unregister(_ handle: Handle) {
        let pointer = OpaquePointer(Unmanaged.passUnretained(handle).toOpaque())
        _ = table.withLock { $0.removeValue(forKey: Self.key(pointer)) }
    }

    /// The live handle behind `pointer`, or nil.
    func lookup(_ pointer: OpaquePointer?) -> Handle? {
        guard let pointer else { return nil }
        return table.withLock { $0[Self.key(pointer)] }
    }
}

/// The C pointer of a handle registered in a ``LiveHandles`` table.
func cPointer(_ handle: AnyObject) -> OpaquePointer { OpaquePointer(Unmanaged.passUnretained(handle).toOpaque()) }

/// Runs `body` under the API lock with the live handle of `pointer` in `table`:
/// kAudio_ParamError for NULL or a pointer that is no live handle of that type; an engine
/// error becomes its OSStatus, a ``StatusError`` its status.
func withHandle<Handle: AnyObject & Sendable>(
    _ table: LiveHandles<Handle>, _ pointer: OpaquePointer?, _ body: (Handle) throws -> OSStatus
) -> OSStatus {
    apiLock.lock()
    defer { apiLock.unlock() }
    guard let handle = table.lookup(pointer) else { return kAudio_ParamError }
    do {
        return try body(handle)
    } catch {
        return status(of: error)
    }
}

/// The OSStatus of an error thrown inside a C function: a ``StatusError``'s status, an
/// engine error's code, else kAudio_ParamError.
func status(of error: any Error) -> OSStatus {
    switch error {
    case let error as StatusError: error.status
    case let error as AudioUnitError: error.status
    default: kAudio_ParamError
    }
}

/// Makes a handle, registers it in `table` and stores its pointer in `out`
/// (kAudio_ParamError for a NULL `out`): the New… functions.
func newHandle<Handle: AnyObject & Sendable>(
    _ table: LiveHandles<Handle>, _ out: UnsafeMutablePointer<OpaquePointer?>?, _ make: () -> Handle
) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    apiLock.lock()
    defer { apiLock.unlock() }
    out.pointee = table.register(make())
    return noErr
}

/// Stores a property's size and writability (the …GetPropertyInfo functions).
func storePropertyInfo(_ info: (size: Int, writable: Bool), _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    outSize?.pointee = UInt32(info.size)
    outWritable?.pointee = info.writable ? 1 : 0
    return noErr
}
