import AUCore
import AUFiles
@testable import AUHost
import AUTestSupport
import Foundation
import Glibc
import Testing

/// ``LoadedLibraryPin``: what was loaded when it was made stays loaded, while it holds,
/// after everything else let go (a primed chain's plugins between their two instantiations).
@Suite struct LoadedLibraryPinTests {
    /// An LV2 plugin's library no test instantiates (swh's A-law compressor).
    static let library = "/usr/lib/lv2/a_law-swh.lv2/plugin-linux.so"

    /// The library of an LV2 plugin no other test instantiates (swh's Bode frequency shifter).
    static let batchLibrary = "/usr/lib/lv2/bode_shifter-swh.lv2/plugin-linux.so"

    private func isLoaded(_ library: String = library) -> Bool {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    /// Whether `library` is unloaded within 30 s: another test's pin (a batch renderer's, a
    /// primed chain's) made while it was loaded holds it too, until that pin goes.
    private func unloadsWithin30Seconds(_ library: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while isLoaded(library) && ContinuousClock.now < deadline { usleep(10_000) }
        return !isLoaded(library)
    }

    @Test("a library loaded when the pin was made stays loaded while it holds, and goes with it")
    func heldLibraryStaysUntilReleased() throws {
        try #require(!isLoaded(), "\(Self.library) is loaded already")
        let handle = try #require(dlopen(Self.library, RTLD_NOW), "\(Self.library) is missing (swh-lv2)")
        var pin = LoadedLibraryPin()
        dlclose(handle)
        #expect(isLoaded(), "the pin let the library be unloaded")
        pin.release()
        #expect(unloadsWithin30Seconds(Self.library), "the library stayed loaded after the pin let go")
    }

    /// A batch keeps its plugins' libraries loaded from file to file: without it, each
    /// file's graph freed the last instance, which unloaded the library, and the next file
    /// loaded, relocated and initialized it again (a third of `--jobs 1`'s time per file on
    /// the reference chain, docs/SCALE.md).
    @Test("a batch renderer keeps its plugins' libraries loaded between files, and lets them go with it")
    func batchKeepsLibrariesBetweenFiles() throws {
        try #require(FileManager.default.fileExists(atPath: Self.batchLibrary), "\(Self.batchLibrary) is missing (swh-lv2)")
        try #require(!isLoaded(Self.batchLibrary), "\(Self.batchLibrary) is loaded already")
        let folder = try TemporaryFolder(prefix: "auhost-library-pin")
        defer { folder.remove() }
        let input = folder.file("in.wav")
        let writer = try AudioFileWriter(path: input, encoding: AudioFileEncoding(format: .wav, bitDepth: .float32), sampleRate: 48_000, channels: 1)
        let silence = OwnedAudioBuffers(channels: 1, capacity: 4_800)
        try writer.write(silence.buffers())
        try writer.finish()
        let registry = HostRegistry.make()
        let loaded = try loadPreset(
            #"{"auhost": 1, "name": "bode", "nodes": [{"id": "shift", "unit": "lv2:http://plugin.org.uk/swh-plugins/bodeShifter"}], "chain": ["shift"]}"#,
            registry: registry)
        defer { loaded.dispose() }
        var settings = RenderSettings()
        settings.tail = .seconds(0)
        let encoding = try AudioFileEncoding(format: .wav, bitDepth: .float32)
        let jobs = (0..<2).map { RenderJob(input: input, output: folder.file("out\($0).wav"), encoding: encoding) }
        var batch: BatchRenderer? = BatchRenderer(loaded: loaded, registry: registry, settings: settings, jobs: jobs)
        for job in jobs {
            if case .failure(let error) = try #require(batch).render(job, progress: { _ in }) { Issue.record("\(error)") }
            #expect(isLoaded(Self.batchLibrary), "the file's graph is gone and its plugin's library was unloaded with it")
        }
        batch = nil
        #expect(unloadsWithin30Seconds(Self.batchLibrary), "the library stayed loaded 30 s after the batch renderer went")
    }
}
