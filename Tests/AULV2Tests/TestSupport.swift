import AUCore
import AUEngine
import Foundation
@testable import AULV2
import Testing

/// Shared set-up for the LV2 tests: each test makes its own world through these.
enum LV2TestSupport {
    /// The installed plugins (lilv's default path), without the probe cache.
    static func provider(path: String? = nil) -> LV2Provider { LV2Provider(lv2Path: path, probeCacheFile: nil) }

    /// An uninitialized unit of the installed plugin with `uri`, from a fresh world.
    static func unit(_ uri: String, path: String? = nil) throws -> LV2Unit {
        let found = provider(path: path).discoverComponents()
        guard let component = found.components.first(where: { $0.identifier == uri }) else {
            throw AudioUnitError(.extensionNotFound, "\(uri) is not installed")
        }
        return try component.instantiate() as! LV2Unit
    }

    /// A started graph of the generic output's mono input -> `unit` -> its output at 48 kHz,
    /// with `maximumFrames` as MaximumFramesPerSlice when given; the caller disposes of it.
    static func graph(around unit: LV2Unit, maximumFrames: Int? = nil) throws -> AudioGraph {
        let graph = AudioGraph(registry: ComponentRegistry(providers: [BuiltinUnits()]))
        let output = try graph.addNode(ComponentDescription(type: "auou", subtype: "genr", manufacturer: "AUHs"))
        let node = try graph.addNode(unit)
        try graph.open()
        try graph.unit(of: output).setValue(.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .output)
        try graph.connect(output, to: node)
        try graph.connect(node, to: output)
        if let maximumFrames { graph.maximumFramesPerSlice = maximumFrames }
        try graph.initialize()
        try graph.start()
        return graph
    }

    /// A sine of `frequency` Hz and `amplitude`, sample `frame` at `sampleRate`.
    static func sine(_ frame: Int, frequency: Double = 440, amplitude: Double = 0.5, sampleRate: Double = 48_000) -> Float {
        Float(amplitude * sin(2 * Double.pi * frequency * Double(frame) / sampleRate))
    }

    /// The largest absolute difference between two signals of the same length; signals of
    /// different lengths record an issue and differ by infinity (a missing or extra frame
    /// is a difference, never hidden by comparing the shorter length only).
    static func maximumDifference(_ a: [Float], _ b: [Float], sourceLocation: SourceLocation = #_sourceLocation) -> Float {
        guard a.count == b.count else {
            Issue.record("the signals' lengths differ: \(a.count) and \(b.count) frames", sourceLocation: sourceLocation)
            return .infinity
        }
        return zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    /// The frequency of a signal by counting upward zero crossings (with linear interpolation).
    static func zeroCrossingFrequency(_ samples: ArraySlice<Float>, sampleRate: Double) -> Double {
        var crossings: [Double] = []
        var index = samples.startIndex + 1
        while index < samples.endIndex {
            let previous = samples[index - 1], current = samples[index]
            if previous < 0 && current >= 0 {
                crossings.append(Double(index - 1) + Double(-previous / (current - previous)))
            }
            index += 1
        }
        guard crossings.count > 2 else { return 0 }
        return Double(crossings.count - 1) / (crossings.last! - crossings.first!) * sampleRate
    }
}
