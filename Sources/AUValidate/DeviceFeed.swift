import AUCore
import Foundation
import Synchronization

/// The input callback the `output-device` test gives an output unit, and what the device
/// did with it: each pull is counted with its size and filled with ``sample(_:_:)`` of the
/// frames pulled so far, so that what arrives on the device can be compared sample by sample.
/// - Thread: [control]; ``callback`` on the device's render thread (atomics only).
final class DeviceFeed: @unchecked Sendable {
    /// The most distinct period sizes recorded.
    static let sizeSlots = 8
    let channels: Int
    private let pulls = Atomic<Int>(0)
    private let pulledFrames = Atomic<Int>(0)
    private let sizes: UnsafeMutablePointer<Atomic<Int>>

    init(channels: Int) {
        self.channels = channels
        sizes = .allocate(capacity: Self.sizeSlots)
        for slot in 0..<Self.sizeSlots { (sizes + slot).initialize(to: Atomic<Int>(0)) }
    }

    deinit {
        sizes.deinitialize(count: Self.sizeSlots)
        sizes.deallocate()
    }

    /// The callback's sample `frame` (counted over every pull) of `channel`: distinct over
    /// a thousand frames, exact in 32-bit float, peak 1009 / 2048 (-6.2 dBFS).
    /// - Thread: [any]
    static func sample(_ frame: Int, _ channel: Int) -> Float { Float((frame + channel * 311) % 1009 + 1) / 2048 }

    /// How many times the device pulled.
    var count: Int { pulls.load(ordering: .acquiring) }
    /// Frames pulled so far.
    var frames: Int { pulledFrames.load(ordering: .acquiring) }
    /// The sizes of the pulls.
    var periodSizes: Set<Int> {
        Set((0..<Self.sizeSlots).map { sizes[$0].load(ordering: .relaxed) }.filter { $0 > 0 })
    }

    /// The input callback: the next frames of ``sample(_:_:)``.
    var callback: RenderCallback {
        let feed = Unmanaged.passUnretained(self)
        return RenderCallback { _, _, _, buffers in
            feed._withUnsafeGuaranteedRef { $0.fill(buffers) }
        }
    }

    /// - Thread: [render]
    private func fill(_ buffers: AudioBuffers) -> AudioUnitStatus {
        let start = pulledFrames.load(ordering: .relaxed)
        for channel in 0..<buffers.channelCount {
            for frame in 0..<buffers.frameCount { buffers[channel][frame] = Self.sample(start + frame, channel) }
        }
        for slot in 0..<Self.sizeSlots {
            let size = sizes[slot].load(ordering: .relaxed)
            if size == buffers.frameCount { break }
            if size == 0, sizes[slot].compareExchange(expected: 0, desired: buffers.frameCount, ordering: .relaxed).exchanged { break }
        }
        pulledFrames.store(start + buffers.frameCount, ordering: .releasing)
        pulls.add(1, ordering: .releasing)
        return 0
    }

    /// Fails unless the device pulls ``OutputUnitTests/periods`` more times within
    /// ``OutputUnitTests/startTimeout``; the failure adds what `device` says of the device then.
    func requirePulls(after what: String, device: () -> String) throws {
        let target = count + OutputUnitTests.periods
        let deadline = Date().addingTimeInterval(OutputUnitTests.startTimeout)
        while count < target && Date() < deadline { usleep(1_000) }
        try require(count >= target, "after \(what) the device pulled the input \(count - target + OutputUnitTests.periods) times in \(Int(OutputUnitTests.startTimeout)) s; expected \(OutputUnitTests.periods)\(device())")
    }

    /// Fails when the device pulls again within ``OutputUnitTests/quietWindow`` (it was to stop).
    func requireQuiet(after what: String) throws {
        let stopped = count
        let deadline = Date().addingTimeInterval(OutputUnitTests.quietWindow)
        while count == stopped && Date() < deadline { usleep(1_000) }
        try require(count == stopped, "after \(what) returned the device pulled the input \(count - stopped) more times")
    }
}
