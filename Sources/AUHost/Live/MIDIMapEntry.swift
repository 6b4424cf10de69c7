import AUCore
import AUPresets
import Glibc

/// One mapping as the render thread applies it: plain values and unretained pointers to
/// the unit and its parameter table (the chain owns both for as long as the map is
/// attached), so that a whole table lives in preallocated memory.
/// - Thread: [render] reads it; [control] makes it.
struct MIDIMapEntry: BitwiseCopyable {
    enum Kind: UInt8 { case controlChange, pitchBend, note }
    /// ``PresetMIDIMapping/Curve`` in plain memory.
    enum Curve: UInt8 { case linear, log, toggle, momentary }

    var isActive = false
    var kind = Kind.controlChange
    /// The controller or note number.
    var number: UInt8 = 0
    /// 0–15, or -1 for every channel.
    var channel: Int8 = -1
    var curve = Curve.linear
    var isWhole = false
    var minimum: Float = 0
    var maximum: Float = 1
    /// Frames a move glides over (0: a step).
    var smoothingFrames: Int32 = 0
    /// The parameter's slot in the unit's table.
    var parameterIndex: Int32 = 0
    /// The snapshot (from 0) this slot holds a value of, -1 for a mapping; a snapshot's slot
    /// never matches MIDI: a program change recalls it, gliding to ``target``.
    var snapshot: Int16 = -1
    var target: Float = 0
    /// `Unmanaged<AudioUnit>` and `Unmanaged<ParameterTable>` as addresses.
    var unit: UnsafeMutableRawPointer?
    var table: UnsafeMutableRawPointer?

    /// An inactive slot.
    init() {}

    /// The entry of a checked mapping on `unit`, at `sampleRate`.
    init(_ loaded: LoadedMIDIMapping, unit: AudioUnit, sampleRate: Double) {
        isActive = true
        switch loaded.mapping.source {
        case .controlChange(let value): (kind, number) = (.controlChange, UInt8(value))
        case .pitchBend: kind = .pitchBend
        case .note(let value): (kind, number) = (.note, UInt8(value))
        }
        channel = loaded.mapping.channel.map { Int8($0 - 1) } ?? -1
        switch loaded.mapping.curve {
        case .linear: curve = .linear
        case .log: curve = .log
        case .toggle: curve = .toggle
        case .momentary: curve = .momentary
        }
        isWhole = loaded.isWhole
        minimum = loaded.minimum
        maximum = loaded.maximum
        smoothingFrames = Int32(min(Double(Int32.max), ((loaded.mapping.smoothing ?? 0) / 1000 * sampleRate).rounded()))
        parameterIndex = Int32(unit.parameters.index(of: loaded.info.address) ?? 0)
        self.unit = Unmanaged.passUnretained(unit).toOpaque()
        table = Unmanaged.passUnretained(unit.parameters).toOpaque()
    }

    /// The slot of snapshot `index`'s `value` of a parameter: recalled over `ramp` milliseconds.
    init(snapshot index: Int, value: ResolvedParameter, unit: AudioUnit, ramp: Double, sampleRate: Double) {
        snapshot = Int16(index)
        target = value.value
        isWhole = value.info.unit == .indexed || value.info.unit == .boolean || value.info.valueStrings != nil
        smoothingFrames = Int32(min(Double(Int32.max), (ramp / 1000 * sampleRate).rounded()))
        parameterIndex = Int32(unit.parameters.index(of: value.info.address) ?? 0)
        self.unit = Unmanaged.passUnretained(unit).toOpaque()
        table = Unmanaged.passUnretained(unit.parameters).toOpaque()
    }

    /// Whether `event` (a channel message) moves this mapping.
    /// - Thread: [render]
    @inline(__always)
    func matches(_ event: MIDIEvent) -> Bool {
        guard isActive, channel < 0 || Int8(event.status & 0x0F) == channel else { return false }
        switch (kind, event.status & 0xF0) {
        case (.controlChange, 0xB0): return event.data1 == number
        case (.pitchBend, 0xE0): return true
        case (.note, 0x90), (.note, 0x80): return event.data1 == number
        default: return false
        }
    }

    /// The control's position 0…1 and whether it is pressed (CC ≥ 64, a note held).
    /// - Thread: [render]
    @inline(__always)
    static func position(of event: MIDIEvent) -> (position: Float, isPressed: Bool) {
        switch event.status & 0xF0 {
        case 0xE0:
            let value = Int(event.data2 & 0x7F) << 7 | Int(event.data1 & 0x7F)
            return (Float(value) / 16_383, value >= 8_192)
        case 0x90 where event.data2 > 0: return (Float(event.data2) / 127, true)
        case 0x90, 0x80: return (0, false)
        default: return (Float(event.data2) / 127, event.data2 >= 64)
        }
    }

    /// The value at `position` along a linear or log curve, rounded for a whole-number parameter.
    /// - Thread: [render]
    @inline(__always)
    func value(at position: Float) -> Float {
        let value = curve == .log ? minimum * powf(maximum / minimum, position) : minimum + (maximum - minimum) * position
        return isWhole ? value.rounded() : value
    }
}
