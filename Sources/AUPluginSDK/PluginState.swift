/// The byte layout of a native unit's saved state, as the SDK writes it:
/// `"AUHS"`, a version (1), the parameter count, then `(id, value)` pairs as little-endian
/// UInt32 / Float bit patterns, then the length and bytes of the unit's extra state.
/// - Thread: [control]
struct PluginState: Equatable {
    var values: [(id: UInt32, value: Float)]
    var extra: [UInt8]

    static let magic: [UInt8] = Array("AUHS".utf8)
    static let version: UInt32 = 1

    static func == (lhs: PluginState, rhs: PluginState) -> Bool {
        lhs.extra == rhs.extra && lhs.values.elementsEqual(rhs.values) { $0.id == $1.id && $0.value.bitPattern == $1.value.bitPattern }
    }

    /// The encoded bytes.
    func encoded() -> [UInt8] {
        var bytes = Self.magic
        func append(_ word: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) } }
        append(Self.version)
        append(UInt32(values.count))
        for entry in values {
            append(entry.id)
            append(entry.value.bitPattern)
        }
        append(UInt32(extra.count))
        bytes += extra
        return bytes
    }

    /// Decodes bytes written by ``encoded()``; nil when they are not such a state.
    init?(decoding bytes: UnsafeBufferPointer<UInt8>) {
        var position = 0
        func word() -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for index in 0..<4 { value |= UInt32(bytes[position + index]) << UInt32(8 * index) }
            position += 4
            return value
        }
        guard bytes.count >= 4, Array(bytes[0..<4]) == Self.magic else { return nil }
        position = 4
        guard word() == Self.version, let count = word(), Int(count) <= bytes.count / 8 else { return nil }
        var values: [(id: UInt32, value: Float)] = []
        for _ in 0..<count {
            guard let id = word(), let bits = word() else { return nil }
            values.append((id, Float(bitPattern: bits)))
        }
        guard let extraCount = word(), position + Int(extraCount) == bytes.count else { return nil }
        self.values = values
        extra = Array(bytes[position...])
    }

    init(values: [(id: UInt32, value: Float)], extra: [UInt8]) {
        self.values = values
        self.extra = extra
    }
}
