import AUHost

/// One OSC 1.0 message: an address pattern and arguments of the types the control verbs
/// need (`s` strings, `i` 32-bit big-endian ints, `f` 32-bit big-endian floats), each
/// string null-terminated and padded to four bytes.
/// - Thread: [any] (a plain value).
struct OSCMessage: Equatable {
    enum Argument: Equatable {
        case string(String)
        case int(Int32)
        case float(Float)
    }

    var address: String
    var arguments: [Argument]

    /// The message's bytes.
    var encoded: [UInt8] {
        var bytes = Self.padded(address)
        bytes += Self.padded("," + arguments.map { argument in
            switch argument {
            case .string: "s"
            case .int: "i"
            case .float: "f"
            }
        }.joined())
        for argument in arguments {
            switch argument {
            case .string(let text): bytes += Self.padded(text)
            case .int(let value): bytes += withUnsafeBytes(of: UInt32(bitPattern: value).bigEndian, Array.init)
            case .float(let value): bytes += withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init)
            }
        }
        return bytes
    }

    /// A message from a packet, or what is wrong with it.
    static func parse(_ bytes: [UInt8]) -> Result<OSCMessage, ControlCommandError> {
        var offset = 0
        func string() -> String? {
            guard let end = bytes[offset...].firstIndex(of: 0) else { return nil }
            let text = String(decoding: bytes[offset..<end], as: UTF8.self)
            offset = (end + 4) & ~3
            return offset <= bytes.count ? text : nil
        }
        func word() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return bytes[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        guard bytes.first == UInt8(ascii: "/"), let address = string() else {
            return .failure(ControlCommandError("not an OSC message: expected an address starting with '/'"))
        }
        guard offset < bytes.count else { return .success(OSCMessage(address: address, arguments: [])) }
        guard let tags = string(), tags.hasPrefix(",") else { return .failure(ControlCommandError("OSC message \(address): no type tags (',…')")) }
        var arguments: [Argument] = []
        for tag in tags.dropFirst() {
            switch tag {
            case "s":
                guard let text = string() else { return .failure(ControlCommandError("OSC message \(address): a string argument runs past the packet")) }
                arguments.append(.string(text))
            case "i":
                guard let value = word() else { return .failure(ControlCommandError("OSC message \(address): an int argument runs past the packet")) }
                arguments.append(.int(Int32(bitPattern: value)))
            case "f":
                guard let value = word() else { return .failure(ControlCommandError("OSC message \(address): a float argument runs past the packet")) }
                arguments.append(.float(Float(bitPattern: value)))
            default:
                return .failure(ControlCommandError("OSC message \(address): argument type '\(tag)' is not taken; expected s, i or f"))
            }
        }
        return .success(OSCMessage(address: address, arguments: arguments))
    }

    /// `text` as OSC writes a string: its bytes, a null, padded to four bytes.
    private static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }
}
