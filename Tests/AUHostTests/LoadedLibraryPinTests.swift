@testable import AUHost
import Glibc
import Testing

/// ``LoadedLibraryPin``: what was loaded when it was made stays loaded, while it holds,
/// after everything else let go (a primed chain's plugins between their two instantiations).
@Suite struct LoadedLibraryPinTests {
    /// An LV2 plugin's library no test instantiates (swh's A-law compressor).
    static let library = "/usr/lib/lv2/a_law-swh.lv2/plugin-linux.so"

    private func isLoaded() -> Bool {
        guard let handle = dlopen(Self.library, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    @Test("a library loaded when the pin was made stays loaded while it holds, and goes with it")
    func heldLibraryStaysUntilReleased() throws {
        try #require(!isLoaded(), "\(Self.library) is loaded already")
        let handle = try #require(dlopen(Self.library, RTLD_NOW), "\(Self.library) is missing (swh-lv2)")
        var pin = LoadedLibraryPin()
        dlclose(handle)
        #expect(isLoaded(), "the pin let the library be unloaded")
        pin.release()
        #expect(!isLoaded(), "the library stayed loaded after the pin let go")
    }
}
