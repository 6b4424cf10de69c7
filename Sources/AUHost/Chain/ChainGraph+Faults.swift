import AUCore
import AUEngine

extension ChainGraph {
    /// What a user is told of a notice the render thread left: a node that produced NaN or
    /// infinity (muted from then on) or failed to render, named by its id and unit, with the
    /// frame; nil for the notices that are no fault (a plan adopted, a latency followed).
    /// - Thread: [control]
    public func faultDescription(_ notice: GraphNotice) -> String? {
        let name = nodes.first { $0.node == notice.node }.map { "'\($0.id)' (\($0.unit.name))" } ?? "node \(notice.node)"
        let frame = Int(notice.sampleTime)
        switch notice.kind {
        case .nonFiniteOutput:
            return "\(name) produced NaN or infinity in the cycle starting at frame \(frame); it was muted from then on (its output is silence)"
        case .renderError:
            return "\(name) failed to render at frame \(frame) (status \(notice.status)); its output was silenced for that cycle"
        case .workerStalled:
            return "\(name) kept a render worker past the cycle's deadline at frame \(frame); that cycle was silent, and so is every cycle until it returns"
        case .planAdopted, .latencyChanged:
            return nil
        }
    }
}
