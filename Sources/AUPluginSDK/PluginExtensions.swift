import CAUPluginABI

/// The ABI extensions the SDK offers the host (ABI version 2, `get_extension`): the table
/// for an extension ID a unit has, NULL for one it has not or an ID the SDK does not know.
/// The tables are made once and never freed (a unit library is never unloaded).
/// - Thread: [control]
enum PluginExtensions {
    /// The table of `AUHOST_EXTENSION_MIDI_OUTPUT`: no functions; offering it declares
    /// that the unit writes the MIDI it sends into the render call's output events.
    nonisolated(unsafe) static let midiOutput: UnsafeMutablePointer<auhost_midi_output_extension> = {
        let table = UnsafeMutablePointer<auhost_midi_output_extension>.allocate(capacity: 1)
        table.initialize(to: auhost_midi_output_extension(struct_size: UInt32(MemoryLayout<auhost_midi_output_extension>.size), flags: 0))
        return table
    }()

    /// The table of extension `id` for `instance`, or nil.
    /// - Thread: [control]
    static func table(_ id: UnsafePointer<CChar>?, for instance: PluginInstance) -> UnsafeRawPointer? {
        guard let id else { return nil }
        switch String(cString: id) {
        case AUHOST_EXTENSION_MIDI_OUTPUT: return instance.sendsMIDI ? UnsafeRawPointer(midiOutput) : nil
        default: return nil
        }
    }
}
