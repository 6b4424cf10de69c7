/// What a native unit's author writes: a class that declares who it is and its
/// parameters statically, and processes audio. Export it with one line (see
/// ``PluginExport``); the SDK builds the C function tables the host calls.
///
/// ```swift
/// final class Gain: PluginUnit {
///     static let descriptor = UnitDescriptor(type: .effect, subtype: "gain", manufacturer: "Demo", name: "Gain", manufacturerName: "Demo")
///     static let parameters = [PluginParameterInfo(id: 0, identifier: "gain", name: "Gain", unit: .decibels, range: -60...12, default: 0)]
///     private var gain: Float = 1
///     init() {}
///     func setParameter(_ id: UInt32, value: Float) { gain = decibelsToGain(value) }
///     func process(_ block: AudioBlock) { ... }
/// }
/// @_cdecl("auhost_plugin_entry") public func entry() -> UnsafeRawPointer { PluginExport.entry(Gain.self) }
/// ```
///
/// The SDK calls ``setParameter(_:value:)`` with every default right after `init()`, and
/// again for each change (before ``prepare(_:)``, or during render at the change's frame).
/// - Thread: [any] as each requirement says: set-up [control], ``process(_:)`` and
///   ``handleMIDI(_:)`` [render].
public protocol PluginUnit: AnyObject {
    /// Who the unit is: type, subtype, manufacturer codes, names, buses.
    static var descriptor: UnitDescriptor { get }
    /// Every parameter the unit has, fixed for its life.
    static var parameters: [PluginParameterInfo] { get }
    /// Factory presets (none by default).
    static var factoryPresets: [PluginPreset] { get }

    /// Makes an instance; allocate nothing the render thread depends on yet.
    /// - Thread: [control]
    init()

    /// Allocates everything render needs for this sample rate, block size and channel
    /// counts; throw to refuse them.
    /// - Thread: [control]
    func prepare(_ setup: RenderSetup) throws(PluginError)

    /// Frees what ``prepare(_:)`` allocated.
    /// - Thread: [control]
    func unprepare()

    /// A parameter changed (its value is already clamped to the declared range).
    /// - Thread: [render] (at the change's frame) or control (while not rendering).
    func setParameter(_ id: UInt32, value: Float)

    /// A MIDI message arrived at the next frame to be processed.
    /// - Thread: [render]
    func handleMIDI(_ message: PluginMIDIEvent)

    /// Produces `block.frameCount` frames into every output channel.
    /// - Thread: [render] No allocation, no lock, no blocking call, no print.
    func process(_ block: AudioBlock)

    /// Clears delay lines, envelopes and voices; keeps parameter values.
    /// - Thread: [control]
    func reset()

    /// Latency in frames at the prepared sample rate.
    /// - Thread: [control]
    var latencyFrames: Int { get }

    /// How long the unit rings after its input stops, in seconds.
    /// - Thread: [control]
    var tailTime: Double { get }

    /// State beyond parameter values (the SDK saves those itself).
    /// - Thread: [control]
    func saveExtraState() -> [UInt8]

    /// Restores what ``saveExtraState()`` wrote; false when the bytes cannot be read.
    /// - Thread: [control]
    func restoreExtraState(_ bytes: [UInt8]) -> Bool
}

extension PluginUnit {
    /// The default: nothing.
    /// - Thread: [control]
    public static var factoryPresets: [PluginPreset] { [] }
    /// The default: nothing.
    /// - Thread: [control]
    public func prepare(_ setup: RenderSetup) throws(PluginError) {}
    /// The default: nothing.
    /// - Thread: [control]
    public func unprepare() {}
    /// The default: nothing.
    /// - Thread: [render]
    public func handleMIDI(_ message: PluginMIDIEvent) {}
    /// The default: nothing.
    /// - Thread: [control]
    public func reset() {}
    /// The default: nothing.
    /// - Thread: [control]
    public var latencyFrames: Int { 0 }
    /// The default: nothing.
    /// - Thread: [control]
    public var tailTime: Double { 0 }
    /// The default: nothing.
    /// - Thread: [control]
    public func saveExtraState() -> [UInt8] { [] }
    /// The default: nothing.
    /// - Thread: [control]
    public func restoreExtraState(_ bytes: [UInt8]) -> Bool { bytes.isEmpty }
}
