import Foundation

/// The life-cycle state of a unit instance.
/// - Thread: [any]
public enum UnitState: String, Sendable {
    /// Created and configurable; cannot render (`AudioComponentInstanceNew` done).
    case uninitialized
    /// Render resources allocated; can render (`AudioUnitInitialize` done).
    case initialized
    /// Disposed; every call fails (`AudioComponentInstanceDispose` done).
    case disposed
}

/// A preset (`AUPreset`): a factory preset has a number of 0 or more; a user preset is < 0.
/// - Thread: [any]
public struct UnitPreset: Hashable, Sendable, CustomStringConvertible {
    public var number: Int
    public var name: String
    /// - Thread: [any]
    public init(number: Int, name: String) {
        self.number = number
        self.name = name
    }
    /// - Thread: [any]
    public var description: String { "\(number): \(name)" }
}

/// Feeds an input bus from another unit's output bus (`AudioUnitConnection`).
/// - Thread: [any]
public struct UnitConnection: Sendable {
    /// The unit pulled from; nil disconnects the input.
    public var sourceUnit: AudioUnit?
    public var sourceOutputBus: Element
    public var destinationInputBus: Element
    /// - Thread: [any]
    public init(sourceUnit: AudioUnit?, sourceOutputBus: Element, destinationInputBus: Element) {
        self.sourceUnit = sourceUnit
        self.sourceOutputBus = sourceOutputBus
        self.destinationInputBus = destinationInputBus
    }
}

/// Supplies an input bus's audio on demand (`AURenderCallbackStruct`).
/// The closure is created on a control thread and called on the render thread: it must not
/// allocate, lock or block, and it fills the given buffers (`frameCount` frames).
/// - Thread: [render] (the call); control (creation).
public struct RenderCallback: Sendable {
    public let body: @Sendable (_ flags: inout RenderFlags, _ timestamp: RenderTimestamp, _ bus: Element, _ buffers: AudioBuffers) -> AudioUnitStatus
    /// - Thread: [render]
    public init(_ body: @escaping @Sendable (inout RenderFlags, RenderTimestamp, Element, AudioBuffers) -> AudioUnitStatus) {
        self.body = body
    }
}

/// A render callback in an object of its own: the render thread calls it through an
/// unretained reference to an immutable field, so a call retains nothing (a closure copied
/// out of a list is retained and released around every call).
/// - Thread: [control] makes it; [render] calls ``callback``.
package final class RenderCallbackBox: Sendable {
    package let callback: RenderCallback
    package init(_ callback: RenderCallback) { self.callback = callback }
}

/// Where an input bus gets its audio (the control side's list, which keeps the sources
/// alive).
enum InputSource: Sendable {
    case none
    case connection(UnitConnection)
    case callback(RenderCallbackBox)

    /// What the render thread reads of it: the same source, unretained.
    var renderSide: RenderInputSource {
        switch self {
        case .none: .none
        case .connection(let connection):
            connection.sourceUnit.map { .connection(Unmanaged.passUnretained($0), bus: connection.sourceOutputBus) } ?? .none
        case .callback(let box): .callback(Unmanaged.passUnretained(box))
        }
    }
}

/// An input's source as the render thread reads it: unretained references, kept alive by
/// the ``InputSource`` list they were made from for as long as they are published, so that
/// pulling an input retains nothing.
enum RenderInputSource {
    case none
    case connection(Unmanaged<AudioUnit>, bus: Element)
    case callback(Unmanaged<RenderCallbackBox>)
}

/// One bus of a unit: its stream format and name.
/// - Thread: [control]
public struct BusConfiguration: Sendable {
    public var format: StreamFormat
    public var name: String
    /// - Thread: [control]
    public init(format: StreamFormat, name: String) {
        self.format = format
        self.name = name
    }

    /// A canonical float bus.
    /// - Thread: [control]
    public static func canonical(channels: Int, sampleRate: Double = 48_000, name: String) -> BusConfiguration {
        BusConfiguration(format: .canonical(sampleRate: sampleRate, channels: channels), name: name)
    }
}

/// A parameter change scheduled into the next render cycle (`AudioUnitParameterEvent`):
/// immediate at a frame offset, or a linear ramp.
/// - Thread: [any]
public struct ScheduledParameterEvent: Sendable {
    /// - Thread: [any]
    public enum Kind: Sendable {
        /// Jumps to `value` at `offset` frames into the next cycle.
        case immediate(offset: Int, value: Float)
        /// Moves linearly from `startValue` (nil: the value it has then) to `endValue` over
        /// `duration` frames, starting `startOffset` frames into the next cycle.
        case ramped(startOffset: Int, duration: Int, startValue: Float?, endValue: Float)
    }
    public var address: ParameterAddress
    public var kind: Kind
    /// - Thread: [any]
    public init(_ address: ParameterAddress, _ kind: Kind) {
        self.address = address
        self.kind = kind
    }
}

/// A parameter event as it travels to the render thread: plain values only.
struct ParameterEvent: BitwiseCopyable {
    var index: Int32
    var offset: Int32
    /// 0 for an immediate change.
    var duration: Int32
    /// NaN: start the ramp from the value the parameter has when it begins.
    var startValue: Float
    var value: Float
}

/// A change made on the render thread, on its way to the listeners.
struct UnitNotification: BitwiseCopyable {
    /// A parameter slot (`isParameter`) or a property ID.
    var identity: UInt32
    var isParameter: Bool
    var scope: UInt32
    var element: Int32
    var value: Float
}

/// What a unit's ``AudioUnit/process(_:)`` gets for one slice of a cycle.
/// - Thread: [render]
public struct ProcessContext {
    /// The frames to produce now (≤ MaximumFramesPerSlice).
    public var frameCount: Int
    /// The time of the slice's first frame.
    public var timestamp: RenderTimestamp
    /// One view per input bus, already filled.
    public var inputs: UnsafeBufferPointer<AudioBuffers>
    /// One view per output bus, to fill.
    public var outputs: UnsafeBufferPointer<AudioBuffers>
    /// MIDI events of this slice, sorted, offsets relative to the slice's first frame.
    public var midiEvents: UnsafeBufferPointer<MIDIEvent>
    /// Nonzero when every channel pointer of `inputs` and `outputs` is the one the caller
    /// passed the last time it passed this stamp (see ``BufferStamp``); 0 promises nothing.
    public var buffersStamp: UInt64 = 0
    /// For a unit that applies parameter changes itself (``AudioUnit/takesTimedParameterChanges``):
    /// the changes of this call, sorted by offset, already stored in ``AudioUnit/parameters``
    /// (which hold the values they reach by the end of the call). Empty for other units,
    /// whose calls the scheduler cuts at every change instead.
    public var parameterChanges = UnsafeBufferPointer<ParameterChange>(start: nil, count: 0)
    /// Where ``sendMIDI(_:)`` puts the unit's MIDI output; nil for a unit without one.
    public var midiOutput: UnsafeMutablePointer<MIDIOutputList>? = nil
}
