import Glibc

// Swift overlays that Apple's SDK has beside the imported C API.

/// A Swift collection over an `AudioBufferList`'s buffers, as Apple's CoreAudio overlay has it.
/// - Thread: [any]
public struct UnsafeMutableAudioBufferListPointer: RandomAccessCollection, MutableCollection {
    /// The list this collection views.
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    /// - Thread: [any]
    public init(_ pointer: UnsafeMutablePointer<AudioBufferList>) { unsafeMutablePointer = pointer }

    /// - Thread: [any]
    public init?(_ pointer: UnsafeMutablePointer<AudioBufferList>?) {
        guard let pointer else { return nil }
        unsafeMutablePointer = pointer
    }

    /// - Thread: [any]
    public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    /// - Thread: [any]
    public var startIndex: Int { 0 }
    /// - Thread: [any]
    public var endIndex: Int { count }

    private var buffers: UnsafeMutablePointer<AudioBuffer> {
        (UnsafeMutableRawPointer(unsafeMutablePointer) + MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!)
            .assumingMemoryBound(to: AudioBuffer.self)
    }

    /// - Thread: [any]
    public subscript(index: Int) -> AudioBuffer {
        get { buffers[index] }
        nonmutating set { buffers[index] = newValue }
    }
}

extension AudioBufferList {
    /// The size of a list of `maximumBuffers` buffers, as Apple's overlay computes it.
    /// - Thread: [any]
    public static func sizeInBytes(maximumBuffers: Int) -> Int {
        MemoryLayout<AudioBufferList>.size + max(0, maximumBuffers - 1) * MemoryLayout<AudioBuffer>.stride
    }

    /// A list of `maximumBuffers` buffers allocated with `malloc` (free it with `free`).
    /// - Thread: [control]
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let raw = calloc(1, sizeInBytes(maximumBuffers: maximumBuffers))!
        let list = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        list.pointee.mNumberBuffers = UInt32(maximumBuffers)
        return UnsafeMutableAudioBufferListPointer(list)
    }
}

/// Apple's `Boolean` (MacTypes.h's `unsigned char`), which Swift imports as `UInt8` off Darwin.
/// - Thread: [any]
public typealias Boolean = UInt8

/// What Swift on Darwin calls a C `Boolean`. Here it is the `UInt8` the C API takes, and
/// `true`/`false` literals and `boolValue` make Apple-SDK code such as
/// `var updated: DarwinBoolean = false; AUGraphUpdate(graph, &updated)` compile unchanged.
/// - Thread: [any]
public typealias DarwinBoolean = UInt8

extension UInt8: @retroactive ExpressibleByBooleanLiteral {
    /// - Thread: [any]
    public init(booleanLiteral value: Bool) { self = value ? 1 : 0 }

    /// The value as a Swift Bool (nonzero is true), as `DarwinBoolean.boolValue`.
    /// - Thread: [any]
    public var boolValue: Bool { self != 0 }
}
