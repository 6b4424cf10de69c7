import AUCore
import AUFiles
import AUTestSupport
import Foundation
import Testing
@testable import AUHost

/// A lone file is read and written on threads of its own only when more than one thread
/// may render it: `--threads 1` is one thread, with no hand-off between threads (issue 32);
/// and never for a chain rendered one slice behind in a unit-host child, whose render thread
/// waits for it.
@Suite struct FileWorkThreadsTests {
    @Test func oneThreadReadsAndWritesOnItsOwnThread() {
        var settings = RenderSettings()
        settings.parallelism = RenderParallelism(threads: 1).pipeliningOverEveryThread
        #expect(!settings.shouldOverlapFileWork(jobs: 1, cores: 2))
        settings.parallelism = RenderParallelism(threads: 2).pipeliningOverEveryThread
        #expect(settings.shouldOverlapFileWork(jobs: 1, cores: 2))
        #expect(!settings.shouldOverlapFileWork(jobs: 2, cores: 2), "a batch uses the cores through --jobs")
        #expect(!settings.shouldOverlapFileWork(jobs: 1, cores: 1), "no core to spare")
    }

    /// The same chain of two amps in process, `together` and `per-unit`, offered two threads
    /// and settings that overlap the file work: the `together` chain renders one slice behind
    /// and reads its file on its render thread (which waits for the child otherwise); the
    /// others on a reader thread.
    @Test(arguments: ["none", "together", "per-unit"])
    func aChainOneSliceBehindReadsAndWritesOnItsRenderThread(isolation: String) throws {
        let (loaded, registry) = try IsolationReuseTests.load(isolation: isolation, count: 2)
        defer { loaded.dispose() }
        let chain = try ChainGraph(
            loaded, registry: registry, sampleRate: 48_000, maximumFrames: IsolationReuseTests.frames,
            parallelism: RenderParallelism(threads: 2).pipeliningOverEveryThread)
        try chain.graph.start()
        defer { chain.dispose() }
        #expect(chain.isolatedNodes.count == (isolation == "none" ? 0 : 2))
        #expect(chain.graph.parallelDecision?.rendersOneSliceBehind == (isolation == "together"), "\(String(describing: chain.graph.parallelDecision?.reason))")
        var settings = RenderSettings()
        settings.parallelism = RenderParallelism(threads: 2).pipeliningOverEveryThread
        settings.overlapsFileWork = true
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("in.wav")
        let writer = try AudioFileWriter(path: path, encoding: try AudioFileEncoding(format: .wav, bitDepth: .float32), sampleRate: 48_000, channels: 1)
        let silence = OwnedAudioBuffers(channels: 1, capacity: 480)
        try withExtendedLifetime(silence) { try writer.write(silence.buffers()) }
        try writer.finish()
        let input = try OfflineFileRenderer.audioInput(RenderJob(input: path, output: folder.file("out.wav"), encoding: try AudioFileEncoding(format: .wav, bitDepth: .float32)), chain: chain, settings: settings)
        defer { input.stop() }
        #expect(input.isThreaded == (isolation != "together"))
        #expect(OfflineFileRenderer.overlapsFileWork(settings, chain: chain) == (isolation != "together"))
    }
}
