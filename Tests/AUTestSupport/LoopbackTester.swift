import AUJACK

/// Starts a JACK client named "tester" for measuring a client under test: it plays `fill`
/// on its out_1, records its in_1 into `through` (the caller wires the client under test
/// there) and its in_2 into `direct`, wired here from its own out_1 as the reference.
/// The caller stops it.
/// - Thread: control.
public func startLoopbackTester(
    serverName: String, through: Recording, direct: Recording, fill: @escaping @Sendable (UnsafeMutableBufferPointer<Float>) -> Void
) throws -> JACKDriver {
    let tester = try JACKDriver(.init(clientName: "tester", serverName: serverName, inputChannels: 2, outputChannels: 1)) {
        _, _, inputs, outputs, _ in
        fill(outputs[0])
        through.append(inputs[0])
        direct.append(inputs[1])
        return 0
    }
    try tester.start()
    try tester.client.connect(tester.outputPorts[0].fullName, to: tester.inputPorts[1].fullName)
    return tester
}
