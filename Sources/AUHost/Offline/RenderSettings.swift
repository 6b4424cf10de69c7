import AUFiles

/// The options of one `auhost render` run that apply to every file.
/// - Thread: [any] (a plain value).
public struct RenderSettings: Sendable {
    /// Frames per cycle (`--block`): the chain's MaximumFramesPerSlice too.
    public var blockSize = 1024
    /// The threads that may render each chain (`--threads`; `.singleThreaded` for 1), a
    /// serial chain pipelined over all of them: its latency is compensated away.
    public var parallelism = RenderParallelism.machineDefault.pipeliningOverEveryThread
    public var tail: TailLength = .auto
    /// The output files' rate (`--sample-rate`); `nil`: each input's own rate.
    public var outputSampleRate: Double?
    /// Replace existing outputs (`--force`).
    public var overwrite = false
    /// The longest song a MIDI file may make, in seconds (`--max-length`): a 37-byte file
    /// can say sixteen days.
    public var maximumLength = 3600.0
    /// Files rendered at once (`--jobs`), each through its own graph.
    public var jobs = 1
    /// Whether each file is read ahead and written on threads of their own
    /// (``InputPipeline``, ``OutputPipeline``): set for a batch of one file on a machine
    /// with more than one core.
    public var overlapsFileWork = false
    /// Whether ``parallelism`` is the machine's default, not asked for (`auhost render`
    /// without `--threads`): then a file shorter than ``threadedSeconds`` renders on one
    /// thread (``forFile(seconds:)``).
    public var threadsAreMachineDefault = false
    /// Whether each output's true peak is measured (`--true-peak`; BS.1770, 4× oversampled,
    /// about 8 % of a light chain's CPU): when not, the levels say so and leave it out.
    public var measuresTruePeak = false
    /// Where what reaches the graph's MIDI output is written as a Standard MIDI File
    /// (`--midi-out`, one input only); nil: nowhere.
    public var midiOutputFile: String?
    /// Whether the chain runs at each audio file's own rate (`--rate native`), not converted
    /// to the preset's `sampleRate` (the rate the chain was designed at).
    public var runsAtFileRate = false
    /// libsamplerate's converter for the input and the output (`--src-quality`).
    public var converterQuality = SampleRateQuality.best
    /// The output files' channel count (`--channels`); nil: the more of the input's and
    /// the chain's output's (a mono file through a chain that ends stereo comes back stereo).
    public var outputChannels: Int?

    /// The accepted `--channels` values.
    public static let channelCounts = 1...32

    /// The accepted `--block` values.
    public static let blockSizes = 1...16384
    /// The accepted `--max-length` values (a week).
    public static let maximumLengths = 1.0...604_800
    /// The accepted `--jobs` values.
    public static let jobCounts = 1...64

    /// Files shorter than this, in seconds, render on one thread when the threads are the
    /// machine's default: starting the render worker and the reader and writer threads, and the
    /// pipeline's first cycles before its costs are measured, cost more than they save (a
    /// 1 s file of the reference chain: 106 ms of wall and 50 ms of CPU with them, 94 and 44
    /// ms without; docs/BENCHMARKS.md, issue 32). The output is the same either way.
    public static let threadedSeconds = 5.0

    /// - Thread: [any]
    public init() {}

    /// These settings for one file of `seconds`: on one thread, its reading and writing
    /// too, when it is shorter than ``threadedSeconds`` and the threads are the machine's default.
    /// - Thread: [any]
    public func forFile(seconds: Double) -> RenderSettings {
        guard threadsAreMachineDefault, seconds < Self.threadedSeconds, parallelism.threads > 1 else { return self }
        var settings = self
        settings.parallelism = .singleThreaded
        settings.overlapsFileWork = false
        return settings
    }

    /// Whether a render of `jobs` files on a machine of `cores` cores should set
    /// ``overlapsFileWork``: for a lone file, when more than one thread may render it
    /// (`--threads 1` asks for one thread: the file is read and written on it too, no
    /// hand-off between threads) and there is a core to spare.
    /// - Thread: [any]
    public func shouldOverlapFileWork(jobs: Int, cores: Int) -> Bool {
        jobs == 1 && parallelism.threads > 1 && cores > 1
    }
}
