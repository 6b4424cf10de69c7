import AUHost
import Foundation

/// `auhost render`'s options for batches that fit on no command line or no one machine
/// (docs/SCALE.md): inputs from a list, an output tree mirroring the inputs', a stable
/// share of the batch, per-file settings, and a results file.
/// - Thread: [control]
struct RenderBatchOptions {
    /// `--inputs-from FILE|-`: one input path per line (empty lines skipped).
    var inputsFrom: String?
    /// `--relative-to ROOT`: outputs at `DIR/<the input's folder under ROOT>/<name>.<format>`.
    var relativeTo: String?
    /// `--shard I/N`: this worker renders the inputs whose key hashes to I modulo N.
    var shard: (index: Int, count: Int)?
    /// `--manifest ROWS.jsonl`: one JSON object per line: input, output, set, seed.
    var manifest: String?
    /// `--results RESULTS.jsonl`: one JSON line appended per file as it finishes.
    var results: String?

    static let help = """
          --inputs-from F      also render each path listed in F, one per line (- for standard input)
          --relative-to ROOT   with --output-dir DIR: write DIR/<the input's folder under ROOT>/<name>,
                               so inputs of one name in different folders do not collide
          --shard I/N          render only this worker's share: the inputs whose path (under ROOT
                               with --relative-to) hashes to I modulo N (0 <= I < N); the N shards
                               of one list are disjoint and make the whole
          --manifest ROWS      also render each row of the JSON Lines file ROWS: {"input": PATH,
                               "output": PATH (else by --output-dir), "set": {"NODE.PARAM": VALUE or
                               [LOW, HIGH]}, "seed": N}; a [LOW, HIGH] range is drawn uniformly from
                               the row's seed (the same seed, the same value)
          --results R          append one JSON line per file to R as it finishes: input, output,
                               status (rendered, failed or skipped), error, seconds, frames,
                               sample_rate, channels, peak_dbfs, rms_dbfs, true_peak_dbtp (with
                               --true-peak), set
        """

    static func parse(_ arguments: inout Arguments) throws(CLIError) -> RenderBatchOptions {
        var options = RenderBatchOptions()
        options.inputsFrom = try arguments.option("--inputs-from")
        options.relativeTo = try arguments.option("--relative-to")
        options.shard = try arguments.option("--shard", expected: "I/N with 0 <= I < N (a shard of N, counted from 0)") { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0..<count).contains(index) else { return nil }
            return (index, count)
        }
        options.manifest = try arguments.option("--manifest")
        options.results = try arguments.option("--results")
        return options
    }

    /// Whether the inputs may all come from a list or a manifest (none on the command line).
    var givesInputs: Bool { inputsFrom != nil || manifest != nil }

    /// One row of the batch: an input, its output when the row names one, its settings.
    struct Row {
        var input: String
        var output: String?
        var sets: [String] = []
    }

    /// The jobs of the command line's `inputs`, the list's and the manifest's rows, in that
    /// order, this shard's only, their outputs planned as `OutputPlan` plans them (in the
    /// mirrored folders with --relative-to).
    func jobs(inputs: [String], destination: OutputPlan.Destination?, format: AudioFileFormat?, bitDepth: BitDepth?) throws(CLIError) -> [RenderJob] {
        if relativeTo != nil {
            guard case .directory? = destination else {
                throw .usage("--relative-to mirrors the inputs' folders under --output-dir DIR; give --output-dir", command: RenderCommand.name)
            }
        }
        var rows = inputs.map { Row(input: $0) }
        if let inputsFrom { rows += try Self.lines(of: inputsFrom).map { Row(input: $0.text) } }
        if let manifest { rows += try ManifestRows.read(manifest) }
        if let shard {
            var share: [Row] = []
            for row in rows where BatchShard.hash(try key(row.input)) % UInt64(shard.count) == UInt64(shard.index) { share.append(row) }
            rows = share
        }
        var jobs: [RenderJob] = []
        var seen: [String: String] = [:]
        for row in rows {
            let rowDestination: OutputPlan.Destination
            if let output = row.output {
                rowDestination = .file(output)
            } else if case .directory(let directory)? = destination, relativeTo != nil {
                let folder = URL(fileURLWithPath: try key(row.input)).deletingLastPathComponent().relativePath
                rowDestination = .directory(folder == "." ? directory : directory + "/" + folder)
            } else if let destination {
                rowDestination = destination
            } else {
                throw .usage("\(row.input): a row without an \"output\" needs -o OUTPUT or --output-dir DIR", command: RenderCommand.name)
            }
            if case .file = rowDestination, row.output == nil, rows.count > 1 {
                throw .usage("-o names one output but \(rows.count) inputs were given; use --output-dir DIR", command: RenderCommand.name)
            }
            var job: RenderJob
            do {
                guard let planned = try OutputPlan.jobs(inputs: [row.input], destination: rowDestination, format: format, bitDepth: bitDepth).first else { continue }
                job = planned
            } catch {
                throw error.isUsage ? .usage(error.message, command: RenderCommand.name) : CLIError(error.message)
            }
            job.overrides = row.sets
            let outputKey = URL(fileURLWithPath: job.output).standardizedFileURL.path
            if let other = seen[outputKey] {
                throw .usage("\(other) and \(job.input) would both be written to \(job.output); rename one, render them apart, or pass --relative-to ROOT", command: RenderCommand.name)
            }
            seen[outputKey] = job.input
            jobs.append(job)
        }
        return jobs
    }

    /// What identifies an input in the batch: its path under ROOT with --relative-to (an
    /// input outside ROOT is an error), else the path as given.
    func key(_ input: String) throws(CLIError) -> String {
        guard let relativeTo else { return input }
        let root = URL(fileURLWithPath: relativeTo).standardizedFileURL.path
        let path = URL(fileURLWithPath: input).standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard path.hasPrefix(prefix) else {
            throw CLIError("\(input): not under --relative-to \(relativeTo); expected every input inside ROOT")
        }
        return String(path.dropFirst(prefix.count))
    }

    /// Makes the folders the jobs' outputs go into (the mirrored tree).
    func makeFolders(for jobs: [RenderJob]) throws(CLIError) {
        guard relativeTo != nil || manifest != nil else { return }
        for folder in Set(jobs.map { URL(fileURLWithPath: $0.output).deletingLastPathComponent().path }) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CLIError("\(folder): cannot make the output folder: \((error as NSError).localizedDescription)")
            }
        }
    }

    /// The non-empty lines of `path` (`-`: standard input), with their line numbers.
    static func lines(of path: String) throws(CLIError) -> [(number: Int, text: String)] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: path) else {
                throw CLIError("\(path): cannot read the list; expected a file of one path per line")
            }
            data = read
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError("\(path): not UTF-8 text; expected one path per line")
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            return trimmed.isEmpty ? nil : (index + 1, trimmed)
        }
    }
}

/// The stable hash `--shard` splits by: FNV-1a over the key's UTF-8 bytes, the same on every
/// machine and in every run.
/// - Thread: [any]
enum BatchShard {
    static func hash(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
