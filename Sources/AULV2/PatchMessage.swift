import AUCore

/// `patch:Set`, `patch:Get` and `patch:Put` messages as atoms (`LV2_Atom` header, then an
/// `atom:Object` body: id, otype, properties of key, context and a typed atom, each padded
/// to 8 bytes): made and read on the control side; the render thread only copies them.
/// - Thread: [control]
struct PatchMessage {
    /// The URIDs messages are written and read with, mapped once per unit.
    struct URIDs: Sendable {
        let object, urid, path, string, int, long, float, double, bool: UInt32
        let set, put, get, property, value, body: UInt32

        init(_ map: URIDMap) {
            object = map.map(LV2URI.atomObject)
            urid = map.map(LV2URI.atomURID)
            path = map.map(LV2URI.atomPath)
            string = map.map(LV2URI.atomString)
            int = map.map(LV2URI.atomInt)
            long = map.map(LV2URI.atomLong)
            float = map.map(LV2URI.atomFloat)
            double = map.map(LV2URI.atomDouble)
            bool = map.map(LV2URI.atomBool)
            set = map.map(LV2URI.patchSet)
            put = map.map(LV2URI.patchPut)
            get = map.map(LV2URI.patchGet)
            property = map.map(LV2URI.patchProperty)
            value = map.map(LV2URI.patchValue)
            body = map.map(LV2URI.patchBody)
        }
    }

    let urids: URIDs

    /// `patch:Set` of `property` to `value`, sent as an atom of `type`; nil when the value
    /// is not of a kind `type` holds.
    func set(property: UInt32, to value: PropertyParameterValue, as type: UInt32) -> [UInt8]? {
        guard let payload = bytes(of: value, as: type) else { return nil }
        var message = objectHeader(otype: urids.set)
        appendProperty(&message, key: urids.property, type: urids.urid, withUnsafeBytes(of: property) { Array($0) })
        appendProperty(&message, key: urids.value, type: type, payload)
        return finished(message)
    }

    /// `patch:Get` without a property: the plugin is asked to report every property.
    func getAll() -> [UInt8] { finished(objectHeader(otype: urids.get)) }

    /// The (property, value) pairs a whole atom carries: a `patch:Set`'s one, a
    /// `patch:Put`'s body; nothing for another atom or a value of an unknown type.
    func reported(in atom: UnsafeRawBufferPointer) -> [(property: UInt32, value: PropertyParameterValue)] {
        guard atom.count >= 16, load(atom, 4) == urids.object else { return [] }
        let size = min(Int(load(atom, 0)), atom.count - 8)
        let body = UnsafeRawBufferPointer(rebasing: atom[8..<(8 + size)])
        let properties = self.properties(of: body)
        switch load(body, 4) {
        case urids.set:
            guard let key = properties.first(where: { $0.key == urids.property }), key.type == urids.urid, key.value.count >= 4,
                  let value = properties.first(where: { $0.key == urids.value }), let decoded = decode(value.type, value.value)
            else { return [] }
            return [(load(key.value, 0), decoded)]
        case urids.put:
            guard let inner = properties.first(where: { $0.key == urids.body }), inner.type == urids.object else { return [] }
            return self.properties(of: inner.value).compactMap { property in decode(property.type, property.value).map { (property.key, $0) } }
        default:
            return []
        }
    }

    // MARK: - Internals

    private func objectHeader(otype: UInt32) -> [UInt8] {
        var message = [UInt8](repeating: 0, count: 16)
        store(&message, 4, urids.object)
        store(&message, 12, otype)
        return message
    }

    private func appendProperty(_ message: inout [UInt8], key: UInt32, type: UInt32, _ payload: [UInt8]) {
        var header = [UInt8](repeating: 0, count: 16)
        store(&header, 0, key)
        store(&header, 8, UInt32(payload.count))
        store(&header, 12, type)
        message += header + payload + [UInt8](repeating: 0, count: (8 - payload.count % 8) % 8)
    }

    /// Sets the atom's size (everything after its 8-byte header).
    private func finished(_ message: [UInt8]) -> [UInt8] {
        var message = message
        store(&message, 0, UInt32(message.count - 8))
        return message
    }

    /// The object body's properties: key, value type, value bytes.
    private func properties(of body: UnsafeRawBufferPointer) -> [(key: UInt32, type: UInt32, value: UnsafeRawBufferPointer)] {
        var found: [(key: UInt32, type: UInt32, value: UnsafeRawBufferPointer)] = []
        var offset = 8
        while offset + 16 <= body.count {
            let size = Int(load(body, offset + 8))
            guard offset + 16 + size <= body.count else { break }
            found.append((load(body, offset), load(body, offset + 12), UnsafeRawBufferPointer(rebasing: body[(offset + 16)..<(offset + 16 + size)])))
            offset += 16 + ((size + 7) & ~7)
        }
        return found
    }

    private func bytes(of value: PropertyParameterValue, as type: UInt32) -> [UInt8]? {
        switch (value, type) {
        case (.path(let text), urids.path), (.string(let text), urids.string), (.path(let text), urids.string), (.string(let text), urids.path):
            return Array(text.utf8) + [0]
        case (.int(let number), urids.int): return Int32(exactly: number).map { withUnsafeBytes(of: $0) { Array($0) } }
        case (.int(let number), urids.long): return withUnsafeBytes(of: Int64(number)) { Array($0) }
        case (.float(let number), urids.float): return withUnsafeBytes(of: Float(number)) { Array($0) }
        case (.float(let number), urids.double): return withUnsafeBytes(of: number) { Array($0) }
        case (.int(let number), urids.float): return withUnsafeBytes(of: Float(number)) { Array($0) }
        case (.int(let number), urids.double): return withUnsafeBytes(of: Double(number)) { Array($0) }
        case (.bool(let flag), urids.bool): return withUnsafeBytes(of: Int32(flag ? 1 : 0)) { Array($0) }
        default: return nil
        }
    }

    private func decode(_ type: UInt32, _ value: UnsafeRawBufferPointer) -> PropertyParameterValue? {
        switch type {
        case urids.path, urids.string:
            let text = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
            return type == urids.path ? .path(text) : .string(text)
        case urids.int where value.count >= 4: return .int(Int(value.loadUnaligned(as: Int32.self)))
        case urids.long where value.count >= 8: return .int(Int(value.loadUnaligned(as: Int64.self)))
        case urids.float where value.count >= 4: return .float(Double(value.loadUnaligned(as: Float.self)))
        case urids.double where value.count >= 8: return .float(value.loadUnaligned(as: Double.self))
        case urids.bool where value.count >= 4: return .bool(value.loadUnaligned(as: Int32.self) != 0)
        default: return nil
        }
    }

    private func load(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }

    private func store(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        withUnsafeBytes(of: value) { for (index, byte) in $0.enumerated() { bytes[offset + index] = byte } }
    }
}
