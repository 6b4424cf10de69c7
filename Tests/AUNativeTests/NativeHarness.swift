import AUCore
import AUNative
import Foundation
import Testing

/// What the native-unit tests share: the registry over the package's own unit libraries
/// (built by `swift build` into the folder of the test bundle) and an offline render loop.
enum NativeHarness {
    /// The folder holding `libAUHost*.so`: AUHOST_PLUGIN_PATH's first folder that has
    /// them, else the test bundle's own build folder.
    static let pluginFolder: String = {
        let candidates = (ProcessInfo.processInfo.environment["AUHOST_PLUGIN_PATH"] ?? "").split(separator: ":").map(String.init)
            + [PluginSearchPath.executableFolder() ?? "."]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/libAUHostGain.so") } ?? candidates.last!
    }()

    /// ``pluginFolder`` as a build folder: other libraries there (LV2 fixtures…) are skipped.
    static let searchPath = PluginSearchPath(folders: [.init(path: pluginFolder, isBuildFolder: true)])

    /// Every unit in ``pluginFolder``, discovered once for all tests.
    static let discovery = NativeProvider(searchPath: searchPath).discoverComponents()

    static let registry: ComponentRegistry = {
        let registry = ComponentRegistry()
        for component in discovery.components { registry.register(component) }
        return registry
    }()

    static let missingHint = "the unit libraries are built by `swift build` (run it before `swift test`, as `make` does); looked in \(pluginFolder)"

    /// A new instance of a unit, at `sampleRate`, initialized.
    static func unit(_ reference: String, sampleRate: Double = 48_000, maximumFrames: Int = 512) throws -> AudioUnit {
        let component = try #require(registry.components.first { $0.description.description == reference || $0.name == reference }, "no unit \(reference): \(missingHint)")
        let unit = try component.instantiate()
        try unit.setValue(sampleRate, for: .sampleRate)
        try unit.setValue(maximumFrames, for: .maximumFramesPerSlice)
        return unit
    }

    /// Renders `frames` frames of output bus 0, feeding input bus 0 (when the unit has one)
    /// from `input` (one array per channel; missing channels repeat the first). `beforeBlock`
    /// runs before each block with the block's first frame (schedule events there).
    static func render(
        _ unit: AudioUnit, input: [[Float]] = [], frames: Int, blockSize: Int = 256,
        beforeBlock: (Int) throws -> Void = { _ in }
    ) throws -> [[Float]] {
        let inputs = unit.elementCount(.input)
        if inputs > 0 {
            let source = input.isEmpty ? [[Float](repeating: 0, count: frames)] : input
            try unit.setValue(RenderCallback { _, timestamp, _, buffers in
                let start = Int(timestamp.sampleTime)
                for channel in 0..<buffers.channelCount {
                    let samples = source[min(channel, source.count - 1)]
                    for frame in 0..<buffers.frameCount {
                        buffers[channel][frame] = start + frame < samples.count ? samples[start + frame] : 0
                    }
                }
                return 0
            }, for: .setRenderCallback, scope: .input, element: 0)
        }
        if unit.state != .initialized { try unit.initialize() }
        let channels = try unit.busConfiguration(scope: .output, element: 0).format.channelsPerFrame
        let owned = OwnedAudioBuffers(channels: channels, capacity: blockSize)
        var output = [[Float]](repeating: [], count: channels)
        var position = 0
        while position < frames {
            let count = min(blockSize, frames - position)
            try beforeBlock(position)
            var flags = RenderFlags()
            let buffers = owned.buffers(frameCount: count)
            let status = unit.render(flags: &flags, timestamp: RenderTimestamp(sampleTime: Double(position)), outputBus: 0, buffers: buffers)
            try #require(status == 0, "render returned \(status)")
            for channel in 0..<channels { output[channel] += Array(buffers[channel]) }
            position += count
        }
        return output
    }

    /// A sine of `frequency` Hz and peak `amplitude`.
    static func sine(_ frequency: Double, frames: Int, amplitude: Float = 0.5, sampleRate: Double = 48_000) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// The RMS level of `samples`, in dB.
    static func rmsDecibels(_ samples: ArraySlice<Float>) -> Double {
        let meanSquare = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        return 10 * log10(meanSquare)
    }

    /// The frequency of a periodic signal from its upward zero crossings, each placed
    /// between two samples by linear interpolation.
    static func zeroCrossingFrequency(_ samples: ArraySlice<Float>, sampleRate: Double = 48_000) -> Double {
        var crossings: [Double] = []
        var index = samples.startIndex
        while index + 1 < samples.endIndex {
            let a = Double(samples[index]), b = Double(samples[index + 1])
            if a < 0 && b >= 0 { crossings.append(Double(index) + (-a) / (b - a)) }
            index += 1
        }
        guard crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * sampleRate / (crossings.last! - crossings.first!)
    }

    /// Sets a parameter by its identifier.
    static func set(_ unit: AudioUnit, _ identifier: String, _ value: Float) throws {
        let index = try #require(unit.parameters.index(ofIdentifier: identifier), "\(unit.name) has no parameter \(identifier)")
        try unit.setParameter(unit.parameters.infos[index].id, value: value)
    }

    /// Reads a parameter by its identifier.
    static func value(_ unit: AudioUnit, _ identifier: String) throws -> Float {
        let index = try #require(unit.parameters.index(ofIdentifier: identifier), "\(unit.name) has no parameter \(identifier)")
        return unit.parameters.value(at: index)
    }
}
