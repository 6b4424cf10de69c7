import AUJACK

/// Starts a JACK client named "tester" for measuring a client under test: it plays `fill`
/// on its out_1, records its in_1 into `through` (the caller wires the client under test
/// there) and its in_2 into `direct`, wired here from its own out_1 as the reference.
/// The caller stops it.
/// - Thread: control.
public func startLoopbackTester(
    serverName: String, through: Recording, direct: Recording, fill: @escaping @Sendable (UnsafeMutableBufferPointer<Float>) -> Void
) throws -> JACKTestClient {
    let tester = try JACKTestClient(name: "tester", serverName: serverName, captureChannels: 2, playbackChannels: 1) { _, capture, playback in
        fill(playback[0])
        through.append(capture[0])
        direct.append(capture[1])
    }
    try tester.start()
    try tester.client.connect(tester.playbackPorts[0].fullName, to: tester.capturePorts[1].fullName)
    return tester
}
