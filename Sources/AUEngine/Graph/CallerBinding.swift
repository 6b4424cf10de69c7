import AUCore

/// Lets a plan read the application's input, or write the application's output, in the
/// application's own buffers instead of copying them: a channel table the steps read or
/// write through (the output node's output bus; the buffer of the node that feeds the output
/// node) points at the caller's channels for a cycle rendered in one slice, and at the plan's
/// own buffers otherwise. When the table changes, the steps whose views point through it
/// re-point them, which also gives their units a new ``BufferStamp``.
/// - Thread: [control] builds it (``PlanCompiler``); [render] binds it.
struct CallerBinding {
    /// The table the steps read or write through.
    let table: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The plan's own buffers for the same channels.
    let owned: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let channels: Int
    /// The steps whose views point through `table`.
    let steps: UnsafeMutableBufferPointer<UnsafeMutablePointer<PlanStep>>

    /// A binding of `table` (`channels` pointers, now at the plan's own buffers) for the
    /// steps among `steps` that read or write through it; nil when none does.
    init?(table: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, channels: Int, in plan: RenderPlan) {
        var users: [UnsafeMutablePointer<PlanStep>] = []
        for index in plan.steps.indices {
            let step = plan.steps.baseAddress! + index
            if step.pointee.inputs.contains(where: { $0.kind == .direct && $0.base == table }) || step.pointee.outputs.contains(where: { $0.base == table }) {
                users.append(step)
            }
        }
        guard !users.isEmpty, channels > 0 else { return nil }
        self.table = table
        self.channels = channels
        owned = plan.allocate(UnsafeMutablePointer<Float>.self, count: channels).baseAddress!
        owned.update(from: table, count: channels)
        steps = plan.allocate(UnsafeMutablePointer<PlanStep>.self, count: users.count)
        _ = steps.initialize(from: users)
    }

    /// Points the table's first channels at `caller`'s (as many as both have) and the rest
    /// at the plan's own buffers (all of them when `caller` is nil); returns how many point
    /// at the caller's. Costs a comparison per channel when nothing moved.
    /// - Thread: [render]
    @inline(__always)
    func bind(_ caller: AudioBuffers?) -> Int {
        let count = caller.map { min(channels, $0.channelCount) } ?? 0
        var moved = false
        for channel in 0..<channels {
            let pointer = channel < count ? caller.unsafelyUnwrapped.channelPointers[channel] : owned[channel]
            if table[channel] != pointer {
                table[channel] = pointer
                moved = true
            }
        }
        if moved {
            for step in steps { step.pointee.viewPlacement.pointee.offsetAndFrames = -1 }
        }
        return count
    }
}
