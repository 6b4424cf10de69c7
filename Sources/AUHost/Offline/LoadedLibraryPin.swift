import CAUSupport

/// Every shared object loaded in the process, held open (one more reference, nothing
/// loaded: ``au_hold_loaded_objects``) until ``release()``. Held across a graph's
/// uninitialize and initialize (``LatencyPriming``), it keeps the LV2 plugins' libraries and
/// theirs (cairo, fontconfig, FFTW...) mapped while their instances are freed and made
/// again, so the second instantiation does not load, relocate and initialize them again.
/// - Thread: [control]
struct LoadedLibraryPin {
    private let handles: UnsafeMutableBufferPointer<UnsafeMutableRawPointer?>
    private var count: Int

    /// The most objects held (a process with more holds the first ones).
    static let capacity = 1024

    /// Holds every object loaded now.
    /// - Thread: [control]
    init() {
        handles = .allocate(capacity: Self.capacity)
        count = au_hold_loaded_objects(handles.baseAddress, Self.capacity)
    }

    /// Lets go of the objects (those nothing else holds are unloaded).
    /// - Thread: [control]
    mutating func release() {
        au_release_objects(handles.baseAddress, count)
        count = 0
        handles.deallocate()
    }
}
