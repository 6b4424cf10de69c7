/// C strings the SDK hands to the host: copied once on the control thread, NUL-terminated,
/// freed by their owner (never on the render thread). Uses no C library.
enum CStrings {
    /// A new NUL-terminated copy of `text`; free it with ``free(_:)``.
    /// - Thread: [control]
    static func copy(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = Array(text.utf8)
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }

    /// Frees a string made by ``copy(_:)``.
    /// - Thread: [control]
    static func free(_ pointer: UnsafePointer<CChar>?) {
        pointer.map { UnsafeMutablePointer(mutating: $0).deallocate() }
    }

    /// Writes as much of `text` as fits into a caller's buffer of `capacity` bytes, NUL-terminated.
    /// - Thread: [control]
    static func write(_ text: String, to buffer: UnsafeMutablePointer<CChar>?, capacity: UInt32) {
        guard let buffer, capacity > 0 else { return }
        var count = 0
        for byte in text.utf8 where count < Int(capacity) - 1 {
            buffer[count] = CChar(bitPattern: byte)
            count += 1
        }
        buffer[count] = 0
    }
}
