/// Memory carved in order into the small tables a render path reads every cycle, so that
/// the tables of one unit or one graph step share cache lines instead of each taking its
/// own: a plugin's `run()` evicts the host's data between calls, and each separate table the
/// host touches afterwards is another cache miss (measured at 15-20 ns each on the
/// reference chain; docs/BENCHMARKS.md).
///
/// A bump allocator over cache-line-aligned chunks, freed together with the arena; tables
/// hold plain values only.
/// - Thread: [control] carves it; [render] reads and writes the tables.
public final class RenderArena: @unchecked Sendable {
    private var chunks: [UnsafeMutableRawPointer] = []
    private var chunkEnd = 0
    private var used = 0
    private let chunkBytes: Int

    /// An arena that takes memory in chunks of at least `chunkBytes` bytes.
    /// - Thread: [control]
    public init(chunkBytes: Int = 4096) {
        self.chunkBytes = chunkBytes
    }

    deinit { for chunk in chunks { chunk.deallocate() } }

    /// Room for the next `count` values of `T`, uninitialized (plain values need no
    /// initialization before they are assigned).
    /// - Thread: [control]
    public func allocate<T: BitwiseCopyable>(_ type: T.Type, count: Int) -> UnsafeMutableBufferPointer<T> {
        let alignment = MemoryLayout<T>.alignment, bytes = max(1, count) * MemoryLayout<T>.stride
        var start = (used + alignment - 1) / alignment * alignment
        if chunks.isEmpty || start + bytes > chunkEnd {
            let size = max(chunkBytes, bytes)
            chunks.append(.allocate(byteCount: size, alignment: 64))
            start = 0
            chunkEnd = size
        }
        used = start + bytes
        let pointer = (chunks[chunks.count - 1] + start).bindMemory(to: T.self, capacity: max(1, count))
        return UnsafeMutableBufferPointer(start: pointer, count: count)
    }

    /// The next `count` values of `T`, each initialized to `value`.
    /// - Thread: [control]
    public func table<T: BitwiseCopyable>(_ count: Int, of value: T) -> UnsafeMutableBufferPointer<T> {
        let table = allocate(T.self, count: count)
        table.initialize(repeating: value)
        return table
    }
}
