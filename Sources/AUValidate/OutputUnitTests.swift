import AUAppleUnits
import AUCore
import AUEngine
import AUFiles
import AUJACK
import Foundation

/// auval's output-unit phase, for output units that play on a device (`AudioOutputUnit`):
/// started, the device pulls the unit's input in periods; stopped, it pulls no more; what
/// it pulled arrives on the device; again and again; a started unit uninitialized or
/// disposed stops. The other tests render output units as any unit (`AudioUnitRender`).
enum OutputUnitTests {
    /// How long a started device may take to pull the first periods (a loaded machine, a JACK server waking).
    static let startTimeout = 10.0
    /// Periods the device must pull after each start.
    static let periods = 8
    /// How long a stopped device is watched for a pull it should not make.
    static let quietWindow = 0.1

    static let device = ValidationTest(
        "output-device", strictness: 3,
        "output units: started, the device pulls the input callback in periods of one size; stopped, never again; the file device writes the callback's samples; start/stop again and again; uninitialize and dispose stop a started unit"
    ) { context in
        guard context.component.description.type == ComponentType.output else { return ValidationResult(.skip, "not an output unit") }
        try requirePassThrough(context)
        let unit = try context.instance()
        guard let output = unit as? AudioOutputUnit else { return ValidationResult(.pass, "AudioUnitRender passes the input through; no device: its application renders it") }
        let feed = DeviceFeed(channels: unit.formats(.input).first?.channelsPerFrame ?? 0)
        try unit.setValue(feed.callback, for: .setRenderCallback, scope: .input, element: 0)
        try unit.initialize()
        let sessions = max(2, context.settings.strictness / 2)
        var firstFrame = 0
        for session in 1...sessions {
            firstFrame = feed.frames
            try output.start()
            try feed.requirePulls(after: "start \(session)") { deviceState(unit) }
            output.stop()
            try feed.requireQuiet(after: "stop \(session)")
        }
        try require(feed.periodSizes.count == 1, "the device pulled periods of \(feed.periodSizes.sorted()) frames; expected one size")
        var arrived = try checkArrival(unit, feed: feed, firstFrame: firstFrame)

        try output.start()
        try feed.requirePulls(after: "a start before uninitialize") { deviceState(unit) }
        unit.uninitialize()
        try feed.requireQuiet(after: "uninitialize while started")
        try require(thrownError { try output.start() }?.code == .uninitialized, "start while uninitialized did not fail with Uninitialized")
        try unit.initialize()
        try output.start()
        try feed.requirePulls(after: "a start before dispose") { deviceState(unit) }
        unit.dispose()
        try feed.requireQuiet(after: "dispose while started")
        if arrived.isEmpty { arrived = "on the null device" }
        return ValidationResult(.pass, "AudioUnitRender passes the input through; \(sessions) starts and stops, periods of \(feed.periodSizes.first ?? 0) frames, \(arrived); uninitialize and dispose stop it")
    }

    /// `AudioUnitRender` on output bus 0 of an output unit returns what it pulled from input
    /// bus 0, sample for sample (the channels both have), as Apple's output units do.
    static func requirePassThrough(_ context: ValidationContext) throws {
        let unit = try context.initializedUnit()
        let renderer = try context.renderer(unit)
        let frames = ValidationSettings.blockSize
        let channels = min(unit.formats(.input).first?.channelsPerFrame ?? 0, unit.formats(.output).first?.channelsPerFrame ?? 0)
        let input = (0..<renderer.inputChannelCount).map { _ in (0..<frames).map { _ in context.random.noise() } }
        let output = try renderer.render(frameCount: frames, block: frames, input: { input[$0][$1] })
        try require(channels > 0, "an output unit without input bus 0 or output bus 0")
        for channel in 0..<channels where !SignalCheck.identical([input[channel]], [output[channel]]) {
            throw ValidationFailure("AudioUnitRender on output bus 0 does not return its input: channel \(channel) differs by up to \(SignalCheck.largestDifference([input[channel]], [output[channel]]))")
        }
    }

    /// What a device that did not pull can tell of itself: JACK's cycles of the unit, its
    /// xruns, whether the server shut the client down. "" for other devices.
    static func deviceState(_ unit: AudioUnit) -> String {
        guard let jack = unit as? JACKIOUnit, let client = jack.client else { return "" }
        let shutdown = client.shutdownReason.map { "; the server shut the client down: \($0)" } ?? ""
        return " (JACK ran \(jack.cycleCount) cycles of the unit on '\(client.name)', \(client.xrunCount) xruns\(shutdown))"
    }

    /// What reached the device in the last session: the file device's samples equal the
    /// callback's; JACK ran its cycles and played them at its period. "" for the null device.
    static func checkArrival(_ unit: AudioUnit, feed: DeviceFeed, firstFrame: Int) throws -> String {
        if let paced = unit as? PacedDeviceUnit, let path = paced.path {
            try require(paced.writeError == nil, "writing \(path): \(paced.writeError?.message ?? "")")
            let written = try AudioFileReader(path: path).readAll()
            let frames = feed.frames - firstFrame
            try require(written.capacity == frames, "\(path) holds \(written.capacity) frames; the callback gave \(frames)")
            try require(written.channelCount == feed.channels, "\(path) has \(written.channelCount) channels; the callback gave \(feed.channels)")
            let view = written.buffers()
            for channel in 0..<written.channelCount {
                for frame in 0..<frames where view[channel][frame] != DeviceFeed.sample(firstFrame + frame, channel) {
                    throw ValidationFailure("\(path): frame \(frame) of channel \(channel) is \(view[channel][frame]); the callback gave \(DeviceFeed.sample(firstFrame + frame, channel))")
                }
            }
            return "\(frames) frames in \(path) equal the callback's"
        }
        if let jack = unit as? JACKIOUnit, let client = jack.client {
            try require(jack.cycleCount > 0, "JACK ran no cycle of the unit")
            try require(feed.periodSizes == [client.bufferSize], "JACK's period is \(client.bufferSize) frames; the input was pulled in \(feed.periodSizes.sorted())")
            // The playback ports' level over the sessions: any 205 frames of the ramp in a row
            // (the fade-out at stop aside) peak above 0.1 (-20 dBFS); silence is -infinity.
            let peaks = jack.outputMeter.levels().map(\.peak)
            try require(peaks.count == feed.channels && peaks.allSatisfy { $0 > -20 }, "JACK played peaks of \(peaks) dBFS; the callback's reach -6.2")
            return "\(jack.cycleCount) JACK cycles of \(client.bufferSize) frames on '\(client.name)' carried the callback's signal"
        }
        return ""
    }
}
