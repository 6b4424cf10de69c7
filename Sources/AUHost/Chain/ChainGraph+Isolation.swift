import AUBridge
import AUCore

extension ChainGraph {
    /// The chain's isolated nodes (those whose unit runs in a unit-host child), in file order.
    /// - Thread: [control]
    public var isolatedNodes: [(id: String, unit: BridgedUnit)] {
        nodes.compactMap { node in (node.unit as? BridgedUnit).map { (node.id, $0) } }
    }

    /// Throws when an isolated node's child has crashed, exited or hung (its node went
    /// silent): an offline render then fails that file, with `InstanceInvalidated` (the
    /// batch tries it once more in fresh children). `frame` is where the render is.
    /// - Thread: [control] (the offline driver, between cycles).
    public func requireNoIsolationFault(atFrame frame: Int) throws(AudioUnitError) {
        for node in nodes {
            guard let bridged = node.unit as? BridgedUnit, let fault = bridged.fault else { continue }
            throw AudioUnitError(.instanceInvalidated, "\(fault.description) by frame \(frame); the file was not written")
        }
    }
}
