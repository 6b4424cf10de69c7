import AUCore
import CAUPluginABI

/// Everything ``NativeUnit/process(_:)`` hands to the C render call, allocated when the
/// unit is initialized: the bus tables and their channel-pointer arrays, the event list of
/// the call, the list the unit reports output parameters (and the MIDI it sends) into, the
/// values last sent and those of the call's start, and where they were last compared.
/// - Thread: [control] creates and frees it; [render] uses it.
final class NativeRenderState {
    let inputBuses: UnsafeMutableBufferPointer<auhost_audio_bus>
    let outputBuses: UnsafeMutableBufferPointer<auhost_audio_bus>
    private let inputChannels: [UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>]
    private let outputChannels: [UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>]
    let events: UnsafeMutableBufferPointer<auhost_event>
    let outputEvents: UnsafeMutableBufferPointer<auhost_event>
    let outputEventCount: UnsafeMutablePointer<UInt32>
    /// The transport handed to the unit each call.
    let transport: UnsafeMutablePointer<auhost_transport>
    /// The value each parameter slot last had when sent to the unit (NaN: never sent).
    let sentValues: UnsafeMutableBufferPointer<Float>
    /// The value each parameter slot has at the start of the current call.
    let startValues: UnsafeMutableBufferPointer<Float>
    /// Where the values were last compared with those sent: they are compared again only
    /// after a parameter was written.
    let parameterCursor = ParameterChangeCursor()
    /// The ``AUCore/ProcessContext/buffersStamp`` the buses were last bound for (0: none),
    /// and the bus counts then: a call with the same stamp has the same views.
    private let bound = UnsafeMutablePointer<(stamp: UInt64, inputs: Int, outputs: Int)>.allocate(capacity: 1)

    init(inputChannels inputs: [Int], outputChannels outputs: [Int], parameterCount: Int, midiOutputCapacity: Int, eventCapacity: Int) {
        func channelArrays(_ counts: [Int]) -> [UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>] {
            counts.map {
                let array = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>.allocate(capacity: max(1, $0))
                array.initialize(repeating: nil)
                return array
            }
        }
        inputChannels = channelArrays(inputs)
        outputChannels = channelArrays(outputs)
        inputBuses = .allocate(capacity: max(1, inputs.count))
        outputBuses = .allocate(capacity: max(1, outputs.count))
        for (bus, array) in inputChannels.enumerated() {
            inputBuses.initializeElement(at: bus, to: auhost_audio_bus(channel_count: UInt32(inputs[bus]), channels: UnsafePointer(array.baseAddress!)))
        }
        for (bus, array) in outputChannels.enumerated() {
            outputBuses.initializeElement(at: bus, to: auhost_audio_bus(channel_count: UInt32(outputs[bus]), channels: UnsafePointer(array.baseAddress!)))
        }
        events = .allocate(capacity: eventCapacity)
        events.initialize(repeating: auhost_event())
        outputEvents = .allocate(capacity: max(1, parameterCount) * 4 + midiOutputCapacity)
        outputEvents.initialize(repeating: auhost_event())
        outputEventCount = .allocate(capacity: 1)
        outputEventCount.initialize(to: 0)
        transport = .allocate(capacity: 1)
        transport.initialize(to: auhost_transport())
        bound.initialize(to: (0, 0, 0))
        sentValues = .allocate(capacity: max(1, parameterCount))
        sentValues.initialize(repeating: .nan)
        startValues = .allocate(capacity: max(1, parameterCount))
        startValues.initialize(repeating: .nan)
    }

    deinit {
        for array in inputChannels + outputChannels { array.deallocate() }
        inputBuses.deallocate()
        outputBuses.deallocate()
        events.deallocate()
        outputEvents.deallocate()
        outputEventCount.deallocate()
        transport.deallocate()
        bound.deallocate()
        sentValues.deallocate()
        startValues.deallocate()
    }

    /// Points bus `bus`'s channels at a view's channels (as many as both have).
    /// - Thread: [render]
    @inline(__always)
    func bind(_ buses: UnsafeMutableBufferPointer<auhost_audio_bus>, _ arrays: [UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>?>], bus: Int, to view: AudioBuffers) {
        let array = arrays[bus]
        let count = min(array.count, view.channelCount)
        for channel in 0..<count { array[channel] = view.channelPointers[channel] }
        buses[bus].channel_count = UInt32(count)
    }

    /// Points every bus at this slice's views, unless they were bound for `stamp` already
    /// (a non-zero ``AUCore/ProcessContext/buffersStamp``: the same views as then).
    /// - Thread: [render]
    func bind(inputs: UnsafeBufferPointer<AudioBuffers>, outputs: UnsafeBufferPointer<AudioBuffers>, stamp: UInt64) -> (inputs: Int, outputs: Int) {
        if stamp != 0 && bound.pointee.stamp == stamp { return (bound.pointee.inputs, bound.pointee.outputs) }
        let inputCount = min(inputs.count, inputChannels.count)
        let outputCount = min(outputs.count, outputChannels.count)
        for bus in 0..<inputCount { bind(inputBuses, inputChannels, bus: bus, to: inputs[bus]) }
        for bus in 0..<outputCount { bind(outputBuses, outputChannels, bus: bus, to: outputs[bus]) }
        bound.pointee = (stamp, inputCount, outputCount)
        return (inputCount, outputCount)
    }
}
