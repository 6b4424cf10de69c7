/// Describes a unit or a search for units (Core Audio's `AudioComponentDescription`).
///
/// Matching follows `AudioComponentFindNext`: a zero type, subtype or manufacturer in the
/// search matches anything, and only the flag bits set in the search's
/// ``componentFlagsMask`` must agree.
/// - Thread: [any] (a plain value).
public struct ComponentDescription: Hashable, Sendable, CustomStringConvertible {
    public var type: FourCharCode
    public var subtype: FourCharCode
    public var manufacturer: FourCharCode
    public var componentFlags: ComponentFlags
    public var componentFlagsMask: ComponentFlags

    /// - Thread: [any]
    public init(
        type: FourCharCode = .wildcard, subtype: FourCharCode = .wildcard,
        manufacturer: FourCharCode = .wildcard, componentFlags: ComponentFlags = [],
        componentFlagsMask: ComponentFlags = []
    ) {
        self.type = type
        self.subtype = subtype
        self.manufacturer = manufacturer
        self.componentFlags = componentFlags
        self.componentFlagsMask = componentFlagsMask
    }

    /// Parses `type:subtype:manufacturer`; each part may be `*` or `0` (wildcard) and fewer
    /// than four characters are padded with spaces. Returns nil when the text is not that.
    /// - Thread: [any]
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count) else { return nil }
        var codes: [FourCharCode] = []
        for part in parts {
            guard let code = FourCharCode(parsing: part) else { return nil }
            codes.append(code)
        }
        while codes.count < 3 { codes.append(.wildcard) }
        self.init(type: codes[0], subtype: codes[1], manufacturer: codes[2])
    }

    /// True when `self`, used as a search, matches the concrete `component`.
    /// - Thread: [any]
    public func matches(_ component: ComponentDescription) -> Bool {
        (type.isWildcard || type == component.type)
            && (subtype.isWildcard || subtype == component.subtype)
            && (manufacturer.isWildcard || manufacturer == component.manufacturer)
            && (component.componentFlags.rawValue & componentFlagsMask.rawValue)
                == (componentFlags.rawValue & componentFlagsMask.rawValue)
    }

    /// `type:subtype:manufacturer`, wildcards as `*`.
    /// - Thread: [any]
    public var description: String {
        [type, subtype, manufacturer].map { $0.isWildcard ? "*" : $0.description }.joined(separator: ":")
    }
}

/// Component flags (`AudioComponentFlags`).
/// - Thread: [any]
public struct ComponentFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    /// - Thread: [any]
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioComponentFlag_Unsearchable`: found only by an exact description.
    public static let unsearchable = ComponentFlags(rawValue: 1)
    /// `kAudioComponentFlag_SandboxSafe`.
    public static let sandboxSafe = ComponentFlags(rawValue: 2)
    /// `kAudioComponentFlag_IsV3AudioUnit`.
    public static let isV3AudioUnit = ComponentFlags(rawValue: 4)
    /// `kAudioComponentFlag_RequiresAsyncInstantiation`.
    public static let requiresAsyncInstantiation = ComponentFlags(rawValue: 8)
    /// AUHost: the unit can run on the render thread without blocking (LV2 `hardRTCapable`).
    public static let isRealTimeSafe = ComponentFlags(rawValue: 1 << 16)
    /// AUHost: a probe found the unit broken (see `auhost list --probe`).
    public static let isKnownBroken = ComponentFlags(rawValue: 1 << 17)
}
