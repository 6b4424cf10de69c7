/// The block sizes a unit can render (LV2's `bufsz:fixedBlockLength` and
/// `bufsz:powerOf2BlockLength`). A graph gives such a unit exactly the blocks it asks for.
/// - Thread: [any] (a plain value).
public enum BlockSizeRequirement: Sendable, Equatable, CustomStringConvertible {
    /// Any frame count from 1 to MaximumFramesPerSlice.
    case any
    /// Every render is a power of two frames long (1, 2, 4, …).
    case powerOfTwo
    /// Every render is exactly this many frames long.
    case fixed(Int)

    /// - Thread: [any]
    public var description: String {
        switch self {
        case .any: "any"
        case .powerOfTwo: "power of two"
        case .fixed(let frames): "fixed \(frames)"
        }
    }
}

/// A unit that renders only some block sizes adopts this; a host that finds it gives the
/// unit those blocks (splitting a cycle into powers of two, or buffering a fixed block with
/// that many frames of added latency).
/// - Thread: [control] (read when a graph is compiled).
public protocol BlockSizeConstrained: AnyObject {
    var blockSizeRequirement: BlockSizeRequirement { get }
}
