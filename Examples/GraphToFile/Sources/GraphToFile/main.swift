// A graph built in code, as a Core Audio host builds an AUGraph: an LV2 limiter, a native
// delay and the built-in mixer, with a property listener and a parameter listener, rendered
// into a file. Usage: GraphToFile OUTPUT.wav (native units are found on AUHOST_PLUGIN_PATH).
import AUHost
import Foundation

let output = CommandLine.arguments.dropFirst().first ?? "graph-to-file.wav"
let rate = 48_000.0, block = 512, seconds = 2
do {
    let registry = HostRegistry.make()                                       // AudioComponentFindNext
    let graph = AudioGraph(registry: registry)                               // NewAUGraph
    defer { graph.dispose() }                                                // DisposeAUGraph
    let limiter = try graph.addNode(registry.resolve("lv2:http://gareus.org/oss/lv2/dpl#stereo").description)
    let delay = try graph.addNode(ComponentDescription(type: "aufx", subtype: "dely", manufacturer: "AUHs"))
    let mixer = try graph.addNode(ComponentDescription(type: "aumx", subtype: "mcmx", manufacturer: "AUHs"))
    let io = try graph.addNode(ComponentDescription(type: "auou", subtype: "genr", manufacturer: "AUHs"))
    try graph.open()                                                         // AUGraphOpen
    for node in graph.nodes { try graph.unit(of: node).setValue(rate, for: .sampleRate) }
    try graph.connect(limiter, to: delay)                                    // AUGraphConnectNodeInput
    try graph.connect(delay, to: mixer, input: 0)
    try graph.connect(mixer, to: io)

    let delayUnit = try graph.unit(of: delay)                                // AUGraphNodeInfo
    delayUnit.addPropertyListener(.latency) { change in print("latency changed: \(change)") }
    delayUnit.addParameterListener { address, value in print("delay parameter \(address) = \(value)") }
    try delayUnit.setParameter(0, value: 0.25)                               // AudioUnitSetParameter

    // The graph's input: a 440 Hz tone, the part a render callback plays in Core Audio.
    try graph.setInputCallback(RenderCallback { _, timestamp, _, buffers in
        for channel in 0..<buffers.channelCount {
            for i in 0..<buffers.frameCount {
                buffers[channel][i] = 0.5 * sin(2 * .pi * 440 * Float((timestamp.sampleTime + Double(i)) / rate))
            }
        }
        return 0
    }, for: limiter)                                                          // AUGraphSetNodeInputCallback
    try graph.initialize()                                                   // AUGraphInitialize
    print("latency \(graph.latencyFrames) frames")

    let writer = try AudioFileWriter(path: output, encoding: AudioFileEncoding(format: .wav, bitDepth: .int24), sampleRate: rate, channels: 2, overwrite: true)
    let buffers = OwnedAudioBuffers(channels: 2, capacity: block)
    for cycle in 0..<(seconds * Int(rate) / block) {                         // AudioUnitRender, pulled
        let status = graph.render(frameCount: block, timestamp: RenderTimestamp(sampleTime: Double(cycle * block)), output: buffers.buffers())
        guard status == 0 else { throw AudioUnitError(.cannotDoInCurrentContext, "render failed: \(status)") }
        try writer.write(buffers.buffers())
        _ = graph.dispatchPendingNotifications()                             // listeners run here, never on the render thread
    }
    try writer.finish()
    print("wrote \(writer.framesWritten) frames to \(output)")
} catch {
    FileHandle.standardError.write(Data("GraphToFile: \(error)\n".utf8))
    exit(1)
}
