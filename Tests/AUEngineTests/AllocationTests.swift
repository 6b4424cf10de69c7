import AUTestSupport
import Foundation
import Testing

/// Runs the `alloc-check` executable (built next to the test bundle, or in `folder`) under
/// the AllocCounter shim with LD_PRELOAD, with the LV2 worker fixture when it is built there,
/// and reads its `key=value` report.
func runAllocCheck(_ arguments: [String], in folder: URL? = nil) throws -> (status: Int32, report: [String: Int], text: String) {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    var directory = folder ?? products
    // The test bundle may be nested (…/debug/X.xctest); walk up to the folder with alloc-check.
    for _ in 0..<3 where folder == nil && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("alloc-check").path) {
        directory.deleteLastPathComponent()
    }
    let executable = directory.appendingPathComponent("alloc-check")
    let shim = directory.appendingPathComponent("libAllocCounter.so")
    try #require(FileManager.default.fileExists(atPath: executable.path), "alloc-check is not built next to the tests (\(products.path))")
    try #require(FileManager.default.fileExists(atPath: shim.path), "libAllocCounter.so is not built next to the tests (\(products.path))")
    let fixtures = directory.appendingPathComponent("libLV2Fixtures.so")
    // The LV2 worker fixture (work scheduled in every run), where the build made it.
    let (status, text) = try runUnderAllocCounter(
        executable, arguments: arguments + (FileManager.default.fileExists(atPath: fixtures.path) ? ["--lv2-fixtures", fixtures.path] : []), shim: shim)
    var report: [String: Int] = [:]
    for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
        let parts = field.split(separator: "=")
        if parts.count == 2, let value = Int(parts[1]) { report[String(parts[0])] = value }
    }
    return (status, report, text)
}

/// The release alloc-check (`swift build -c release --product alloc-check`, which `make
/// test` runs first), when it exists and no source file of the render path is newer than
/// the last of its products the build relinked: retains are a property of optimized code,
/// so only a release build can show none.
let releaseAllocCheck: URL? = ReleaseBuild.upToDate(
    products: ["alloc-check", "libAllocCounter.so", "libAUHostGain.so", "libAUHostArpeggiator.so"],
    sources: ["Sources/AUCore", "Sources/AUEngine", "Sources/AULV2", "Sources/AUNative", "Sources/AUMIDI", "Sources/AUMusicPlayer", "Sources/AUPluginSDK", "Sources/CAUSupport",
              "Sources/CAllocCounter", "Sources/alloc-check", "Plugins/Gain", "Plugins/Arpeggiator"])

@Suite("Allocation counting")
struct AllocationTests {
    @Test("the shim sees allocations, frees and locks made on purpose on a counted thread")
    func shimCounts() throws {
        let run = try runAllocCheck(["--self-test"])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["mallocs", default: 0] > 0)
        #expect(run.report["frees", default: 0] > 0)
        #expect(run.report["locks", default: 0] > 0)
    }

    @Test("10,000 cycles of every render path (LV2 control ports, atom MIDI in and out, MIDI between units through the graph (native arpeggiator, x42 transpose, an instrument, the MIDI output), a MusicPlayer (seek, stop, start, rate, loop, MIDI clock), time:Position, output controls, latency and delay lines, the worker threaded and immediate with work scheduled from run(), a native unit, a fixed-block adapter, ramps, NaN notices, live edits) in strict mode: no allocation, free, lock or system call on the render thread, nor on the render workers of a parallel plan", arguments: [1, 3])
    func renderThreadIsClean(threads: Int) throws {
        let run = try runAllocCheck(["--cycles", "10000", "--frames", "64", "--strict", "--threads", "\(threads)"])
        #expect(run.status == 0, "\(run.text)")
        // On several threads the plan is parallel and the workers rendered steps (counted and watched too).
        #expect(run.report["parallel"] == (threads > 1 ? 1 : 0), "\(run.text)")
        #expect((run.report["workerSteps", default: 0] > 0) == (threads > 1), "\(run.text)")
        #expect(run.report["cycles"] == 10_000)
        for key in ["mallocs", "callocs", "reallocs", "frees", "locks", "trapped"] {
            #expect(run.report[key] == 0, "\(key): \(run.text)")
        }
        #expect(run.report["edits", default: 0] >= 10)
        #expect(run.report["parameterChanges", default: 0] >= 100)
        #expect(run.report["ramps", default: 0] >= 20)
        #expect(run.report["midiEvents", default: 0] >= 20)
        // A MusicPlayer played a song into the graph (notes, MIDI clock, a loop, the transport)
        // while the control thread sought, stopped, started and changed its rate.
        #expect(run.report["playerMoves", default: 0] >= 30, "\(run.text)")
        // An LV2 plugin's file property (x42 zeroconvo's impulse response) was set through
        // its atom port (a patch:Set over the lock-free ring) while it rendered.
        #expect(run.report["fileConvolver"] == 1 && run.report["impulseChanges", default: 0] >= 4, "\(run.text)")
        // Notes went through the arpeggiator and the transpose to the graph's MIDI output.
        #expect(run.report["midiOutputEvents", default: 0] >= 20, "\(run.text)")
        #expect(run.report["nanNotices", default: 0] >= 5, "the fixture's NaN was not noticed: \(run.text)")
        #expect(run.report["graphLatency", default: 0] > 0, "no latency to compensate: \(run.text)")
        #expect(run.report["renderFailures"] == 0)
        // The plugins come with `make deps` (swh, mda, x42) and the package (the native Gain).
        for key in ["lv2", "native", "instrument", "latencyReport", "transport", "threadedWorker", "immediateWorker", "midiProcessor", "arpeggiator"] {
            #expect(run.report[key] == 1, "\(key) is not in the graph: \(run.text)")
        }
        // The worker fixture (libLV2Fixtures.so, built with the package), threaded and immediate.
        #expect(run.report["schedulingWorkers"] == 2, "\(run.text)")
        // Retains and releases (ARC traffic, not allocations) are many in a debug build;
        // releaseRenderMakesNoRetain requires 0 of each from the release build.
    }

    /// A pipelined chain (built-in EQs and LV2 fil4, sc4 and dpl in two stages) in cycles
    /// of four slices, parameters changing inside them: the calling thread and the worker
    /// that take its stages allocate, free, lock and call nothing (strict mode).
    @Test("a pipelined chain renders its stages on the render thread and a worker with no allocation, free, lock or system call")
    func pipelinedChainIsClean() throws {
        let run = try runAllocCheck(["--pipeline", "--cycles", "5000", "--frames", "256", "--strict", "--threads", "2"])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["pipelined"] == 1 && run.report["stages"] == 2 && run.report["planSwaps", default: 0] > 0, "\(run.text)")
        #expect(run.report["workerSteps", default: 0] > 0, "\(run.text)")
        #expect(run.report["parameterChanges", default: 0] >= 100, "\(run.text)")
        for key in ["mallocs", "callocs", "reallocs", "frees", "locks", "trapped", "renderFailures"] {
            #expect(run.report[key] == 0, "\(key): \(run.text)")
        }
    }

    @Test("a fixture unit that misbehaves in its render is caught", arguments: [
        ("allocate", "mallocs"), ("usleep", "trapped"), ("write", "trapped"), ("mutex", "trapped"),
    ])
    func misbehaviourIsCaught(misbehaviour: String, counter: String) throws {
        let run = try runAllocCheck(["--cycles", "2000", "--frames", "64", "--strict", "--misbehave", misbehaviour])
        #expect(run.status == 1, "\(run.text)")
        #expect(run.report[counter, default: 0] > 0, "\(misbehaviour) went unnoticed: \(run.text)")
    }

    @Test(
        "a release build renders every path with no retain or release on the render thread or its render workers",
        .enabled(if: releaseAllocCheck != nil, "no up-to-date release alloc-check: make test builds it (swift build -c release --product alloc-check, AllocCounter, AUHostGain, AUHostArpeggiator, LV2Fixtures)"))
    func releaseRenderMakesNoRetain() throws {
        let run = try runAllocCheck(["--cycles", "10000", "--frames", "64"], in: releaseAllocCheck)
        #expect(run.status == 0, "\(run.text)")
        #expect(run.report["native"] == 1 && run.report["instrument"] == 1 && run.report["threadedWorker"] == 1, "\(run.text)")
        #expect(run.report["midiProcessor"] == 1 && run.report["arpeggiator"] == 1 && run.report["midiOutputEvents", default: 0] > 0, "\(run.text)")
        #expect(run.report["parallel"] == 1 && run.report["workerSteps", default: 0] > 0, "\(run.text)")
        #expect(run.report["retains"] == 0, "\(run.text)")
        #expect(run.report["releases"] == 0, "\(run.text)")
        let pipelined = try runAllocCheck(["--pipeline", "--cycles", "5000", "--frames", "256", "--threads", "2"], in: releaseAllocCheck)
        #expect(pipelined.status == 0 && pipelined.report["pipelined"] == 1 && pipelined.report["workerSteps", default: 0] > 0, "\(pipelined.text)")
        #expect(pipelined.report["retains"] == 0 && pipelined.report["releases"] == 0, "\(pipelined.text)")
    }
}
