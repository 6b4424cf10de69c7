import AUCore
import Foundation

/// Instantiates and runs one plugin to see whether it works: what `auhost probe-unit` does
/// in a child process (a plugin that crashes takes only the child down).
/// - Thread: [control]
public enum LV2Probe {
    /// Instantiates the unit, initializes it at 48 kHz, feeds a sine (and a MIDI note) for
    /// 16 blocks of 512 frames, and checks the output is finite.
    /// - Thread: [control]
    public static func probe(_ component: Component) -> LV2ProbeVerdict {
        do {
            let unit = try component.instantiate()
            defer { unit.dispose() }
            (unit as? LV2Unit)?.echoesPluginLog = false
            try unit.setValue(512, for: .maximumFramesPerSlice)
            try unit.initialize()
            var renderer = OfflineUnitRenderer(unit: unit, blockSize: 512)
            // A sine into audio inputs, silence into CV inputs (a CV port wants a control signal).
            let isCV = (0..<unit.elementCount(.input)).map { ((try? unit.busConfiguration(scope: .input, element: $0))?.name ?? "").hasPrefix("CV: ") }
            let output = try renderer.render(frameCount: 8_192, midi: [.noteOn(60, velocity: 100, offset: 10)]) { bus, _, frame in
                isCV[bus] ? 0 : Float(0.5 * sin(2 * Double.pi * 440 * Double(frame) / 48_000))
            }
            for (bus, channels) in output.enumerated() {
                for (channel, samples) in channels.enumerated() where samples.contains(where: { !$0.isFinite }) {
                    return LV2ProbeVerdict(outcome: .fails, reason: "output bus \(bus) channel \(channel) is not finite (NaN or infinity)")
                }
            }
            return LV2ProbeVerdict(outcome: .works)
        } catch {
            return LV2ProbeVerdict(outcome: .fails, reason: error.message)
        }
    }
}
