import AUCore
import CAUSupport
import Glibc

/// The shared memory of one isolated unit: a memfd the host makes and both processes map.
/// Its layout, computed the same way on both sides from the unit's shape:
///
/// | offset | what |
/// | --- | --- |
/// | 0 | `au_bridge_header`: the cycle's sequence words (shared futexes), frames, time, status |
/// | 64 | the input parameters' values, one `Float` per parameter of the unit's table |
/// | then | up to ``midiCapacity`` `MIDIEvent`s of the cycle |
/// | then | every input channel, then every output channel, ``maximumFrames`` floats each |
///
/// - Thread: [control] to make and unmap; the pointers are read on both render threads.
final class BridgeRegion: @unchecked Sendable {
    /// MIDI events one cycle carries (as a unit's own rings).
    static let midiCapacity = AudioUnit.eventCapacity

    let size: Int
    let base: UnsafeMutableRawPointer
    let header: UnsafeMutablePointer<au_bridge_header>
    let parameters: UnsafeMutablePointer<Float>
    let midi: UnsafeMutablePointer<MIDIEvent>
    /// Per bus, per channel: the channel's `maximumFrames` floats.
    let inputs: [[UnsafeMutablePointer<Float>]]
    let outputs: [[UnsafeMutablePointer<Float>]]
    let maximumFrames: Int

    /// The bytes a unit of this shape needs.
    static func size(parameterCount: Int, inputChannels: [Int], outputChannels: [Int], maximumFrames: Int) -> Int {
        let audio = (inputChannels.reduce(0, +) + outputChannels.reduce(0, +)) * maximumFrames * MemoryLayout<Float>.stride
        return audioOffset(parameterCount: parameterCount) + audio
    }

    private static func round(_ bytes: Int) -> Int { (bytes + 63) & ~63 }
    private static let parametersOffset = 64
    private static func midiOffset(parameterCount: Int) -> Int { round(parametersOffset + parameterCount * MemoryLayout<Float>.stride) }
    private static func audioOffset(parameterCount: Int) -> Int {
        round(midiOffset(parameterCount: parameterCount) + midiCapacity * MemoryLayout<MIDIEvent>.stride)
    }

    /// Maps `descriptor` (`size` bytes, read and write, shared).
    init?(descriptor: Int32, parameterCount: Int, inputChannels: [Int], outputChannels: [Int], maximumFrames: Int) {
        size = Self.size(parameterCount: parameterCount, inputChannels: inputChannels, outputChannels: outputChannels, maximumFrames: maximumFrames)
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else { return nil }
        base = mapped
        header = mapped.bindMemory(to: au_bridge_header.self, capacity: 1)
        parameters = (mapped + Self.parametersOffset).bindMemory(to: Float.self, capacity: max(1, parameterCount))
        midi = (mapped + Self.midiOffset(parameterCount: parameterCount)).bindMemory(to: MIDIEvent.self, capacity: Self.midiCapacity)
        let audio = (mapped + Self.audioOffset(parameterCount: parameterCount)).bindMemory(
            to: Float.self, capacity: (inputChannels.reduce(0, +) + outputChannels.reduce(0, +)) * maximumFrames)
        var next = 0
        func channels(_ counts: [Int]) -> [[UnsafeMutablePointer<Float>]] {
            counts.map { count in
                (0..<count).map { _ in
                    defer { next += 1 }
                    return audio + next * maximumFrames
                }
            }
        }
        inputs = channels(inputChannels)
        outputs = channels(outputChannels)
        self.maximumFrames = maximumFrames
    }

    deinit { munmap(base, size) }
}
