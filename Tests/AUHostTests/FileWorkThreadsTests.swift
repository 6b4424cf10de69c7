import AUHost
import Testing

/// A lone file is read and written on threads of its own only when more than one thread
/// may render it: `--threads 1` is one thread, with no hand-off between threads (issue 32).
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
}
