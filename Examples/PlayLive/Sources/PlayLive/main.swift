// A tone played live on JACK, as a Core Audio host plays through AUHAL or RemoteIO: the
// JACK output unit is the output node of a graph whose source is a render callback.
// Usage: PlayLive [SECONDS] [SERVER] (default 2 s; the server defaults to JACK_DEFAULT_SERVER).
import AUHost
import Foundation
import Synchronization

let arguments = CommandLine.arguments.dropFirst()
let seconds = Double(arguments.first ?? "2") ?? 2
let server = arguments.dropFirst().first ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"]
let framesRendered = Atomic<Int>(0)
do {
    let registry = HostRegistry.make()
    guard let component = registry.components(matching: JACKIOUnit.componentDescription).first,  // AudioComponentFindNext
          let io = try component.instantiate() as? JACKIOUnit else {                           // AudioComponentInstanceNew
        throw AudioUnitError(.extensionNotFound, "no JACK output unit (auou:jack:AUHs)")
    }
    io.clientName = "play-live"
    io.serverName = server
    try io.open()                                                            // the device: its rate is the unit's
    let rate = try io.value(of: .sampleRate)

    let graph = AudioGraph(registry: registry)                               // NewAUGraph
    defer { graph.dispose() }                                                // DisposeAUGraph (disposes the unit)
    let output = try graph.addNode(io)                                       // AUGraphAddNode: the output node
    try graph.setInputCallback(RenderCallback { _, timestamp, _, buffers in  // AUGraphSetNodeInputCallback
        for i in 0..<buffers.frameCount {
            let sample = 0.25 * sin(2 * .pi * 440 * Float((timestamp.sampleTime + Double(i)) / rate))
            for channel in 0..<buffers.channelCount { buffers[channel][i] = sample }
        }
        framesRendered.add(buffers.frameCount, ordering: .relaxed)
        return 0
    }, for: output)
    io.graph = graph                                                         // the graph the device plays
    try graph.initialize()                                                   // AUGraphInitialize: registers out_1, out_2
    try graph.start()                                                        // AUGraphStart: starts the output unit
    print("playing 440 Hz on JACK as '\(io.client?.name ?? "?")' at \(Int(rate)) Hz for \(seconds) s")
    Thread.sleep(forTimeInterval: seconds)
    graph.stop()                                                             // AUGraphStop: stops it (fades out)
    print("rendered \(framesRendered.load(ordering: .relaxed)) frames in \(io.cycleCount) cycles, \(io.renderErrorCount) errors")
} catch {
    FileHandle.standardError.write(Data("PlayLive: \(error)\n".utf8))
    exit(1)
}
