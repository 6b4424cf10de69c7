import AUCore
import AUFiles
import AUTestSupport
import Foundation
import Synchronization
import Testing
@testable import AUHost

/// A batch's outputs are put in place by its ``OutputCommitter``, off the render workers
/// (the `fsync`s wait for the disk while the worker renders the next file): each job is
/// reported once its output is whole at its path, in job order, and a commit that fails
/// fails its job alone, leaving nothing at its path.
@Suite struct OutputCommitterTests {
    /// `count` short stereo inputs in `folder` and a job for each, its output beside it.
    static func jobs(_ count: Int, in folder: String) throws -> [RenderJob] {
        let encoding = try AudioFileEncoding(format: .wav, bitDepth: .float32)
        return try (0..<count).map { index in
            let input = "\(folder)/in\(index).wav"
            let buffers = OwnedAudioBuffers(channels: 2, capacity: 4_800)
            for channel in 0..<2 { for frame in 0..<4_800 { buffers.buffers()[channel][frame] = Float(sin(Double(frame * (index + 1)) * 0.01) * 0.5) } }
            let writer = try AudioFileWriter(path: input, encoding: encoding, sampleRate: 48_000, channels: 2)
            try writer.write(buffers.buffers())
            try writer.finish()
            return RenderJob(input: input, output: "\(folder)/out\(index).wav", encoding: encoding)
        }
    }

    /// A batch of `jobs` through the gain chain, no tail, one worker.
    static func renderer(_ jobs: [RenderJob]) throws -> BatchRenderer {
        let registry = HostRegistry.make()
        var settings = RenderSettings()
        settings.tail = .seconds(0)
        return BatchRenderer(loaded: try loadPreset(gainChain, registry: registry), registry: registry, settings: settings, jobs: jobs)
    }

    @Test func aBatchsOutputsArePutInPlaceOffTheWorkerBeforeEachJobIsReported() throws {
        let folder = try TemporaryFolder(prefix: "auhost-commit")
        defer { folder.remove() }
        let jobs = try Self.jobs(4, in: folder.path)
        struct Reported: Sendable {
            var index: Int
            var succeeded: Bool
            var outputInPlace: Bool
            var onWorker: Bool
        }
        let reported = Mutex<[Reported]>([])
        // The thread each job rendered on: its progress is reported from there.
        let workers = Mutex<[Int: pthread_t]>([:])
        let outcomes = try Self.renderer(jobs).run(
            progress: { index, _ in workers.withLock { $0[index] = pthread_self() } },
            finished: { index, outcome in
                let succeeded = if case .success = outcome { true } else { false }
                let worker = workers.withLock { $0[index] }
                let record = Reported(
                    index: index, succeeded: succeeded, outputInPlace: FileManager.default.fileExists(atPath: jobs[index].output),
                    onWorker: worker.map { pthread_equal($0, pthread_self()) != 0 } ?? true)
                reported.withLock { $0.append(record) }
            })
        let records = reported.withLock { $0 }
        #expect(outcomes.count == 4)
        #expect(records.map(\.index) == [0, 1, 2, 3])
        #expect(records.allSatisfy { $0.succeeded && $0.outputInPlace }, "\(records)")
        #expect(records.allSatisfy { !$0.onWorker }, "a job's output was put in place on the worker that rendered it")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }

    @Test func aCommitThatFailsFailsItsJobAloneAndLeavesNothing() throws {
        let folder = try TemporaryFolder(prefix: "auhost-commit")
        defer { folder.remove() }
        let jobs = try Self.jobs(3, in: folder.path)
        // The second job's output appears (another program writes it) while it renders:
        // its commit, which never replaces what it did not find, fails.
        let appeared = jobs[1].output
        let outcomes = try Self.renderer(jobs).run(
            progress: { job, permille in
                if job == 1, permille > 0, !FileManager.default.fileExists(atPath: appeared) { _ = FileManager.default.createFile(atPath: appeared, contents: Data("theirs".utf8)) }
            })
        #expect(throws: Never.self) { try outcomes[0].get() }
        #expect(throws: Never.self) { try outcomes[2].get() }
        let failure = try #require(outcomes[1].failure)
        #expect(failure.message.contains(appeared), "\(failure.message)")
        #expect(try String(contentsOfFile: appeared, encoding: .utf8) == "theirs", "the file that appeared was replaced")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
