import AUCore

/// One port of an LV2 plugin as the host uses it.
/// - Thread: [any] (a plain value).
struct LV2Port: Sendable {
    enum Kind: Sendable, Equatable {
        case audio, control, cv, atom
        /// A port type the host cannot connect (an event port…), with its class URIs.
        case unsupported(String)
    }

    var index: UInt32
    var symbol: String
    var name: String
    var kind: Kind
    var isInput: Bool
    /// `lv2:connectionOptional`: may be left unconnected (the host connects a dummy).
    var isOptional: Bool

    // Control ports.
    var minimum: Float = .nan
    var maximum: Float = .nan
    var defaultValue: Float = .nan
    var isInteger = false
    var isToggled = false
    var isEnumeration = false
    var isLogarithmic = false
    /// `lv2:sampleRate`: the range is a fraction of the sample rate.
    var isSampleRateRelative = false
    var reportsLatency = false
    /// `pprops:notOnGUI`: for the plugin and its own GUI, not a host's controls.
    var isNotOnGUI = false
    /// `lv2:designation`, when the port has one.
    var designationURI: String?
    var scalePoints: [(value: Float, label: String)] = []
    var unitURI: String?

    // Audio and CV ports.
    var groupURI: String?
    var groupLabel: String?
    var isSideChain = false

    // Atom ports.
    var supportsMIDI = false
    var supportsTimePosition = false
    /// `atom:supports patch:Message`: the port takes (input) or sends (output) patch messages.
    var supportsPatch = false
    /// `lv2:designation lv2:control`: the plugin's main control port of its direction.
    var isControlDesignated = false
    /// `rsz:minimumSize` in bytes, 0 when not given.
    var minimumSize = 0
}
