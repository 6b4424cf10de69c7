import AUCore
import AUFiles

/// Decides each input's output path and encoding from the command line, before anything
/// is opened, and refuses plans that cannot work (two inputs onto one output, an output
/// onto its own input).
///
/// - With `-o OUTPUT` (one input only) the output is that path.
/// - With `--output-dir DIR` it is `DIR/<input name without extension>.<format>`.
/// - The format is `--format`, else the extension of `-o`, else the input's extension
///   when it names a format AUFiles writes (wav, flac, aiff, caf, ogg), else wav. An `-o`
///   whose extension names no format AUFiles writes (`out.mp3`) is refused with the list,
///   never written in another format under that name; an `-o` without an extension is
///   written in the chosen format.
/// - The bit depth is `--bit-depth`, else the format's default (24-bit; none for ogg).
/// - Thread: [any] (plain values).
public enum OutputPlan {
    /// - Thread: [any]
    public enum Destination: Sendable, Equatable {
        case file(String)
        case directory(String)
    }

    /// The problem with a plan: a usage mistake (exit 64) or not.
    /// - Thread: [any]
    public struct Problem: Error, Sendable, Equatable {
        public let message: String
        public let isUsage: Bool
    }

    /// One job per input, in order.
    /// - Thread: [any]
    public static func jobs(
        inputs: [String], destination: Destination, format: AudioFileFormat?, bitDepth: BitDepth?
    ) throws(Problem) -> [RenderJob] {
        var jobs: [RenderJob] = []
        for input in inputs {
            let output: String
            let chosen: AudioFileFormat
            switch destination {
            case .file(let path):
                guard inputs.count == 1 else {
                    throw Problem(message: "-o names one output but \(inputs.count) inputs were given; use --output-dir DIR", isUsage: true)
                }
                let named = AudioFileFormat(fileExtensionOf: path)
                if named == nil, let unknown = AudioFileFormat.extension(of: path) {
                    throw Problem(
                        message: "-o \(path): '.\(unknown)' names no format auhost writes; expected one of \(AudioFileFormat.acceptedExtensions), or a name without an extension",
                        isUsage: true)
                }
                if let format, let named, format != named {
                    throw Problem(message: "-o \(path) names a \(named) file but --format is \(format)", isUsage: true)
                }
                chosen = format ?? named ?? AudioFileFormat(fileExtensionOf: input) ?? .wav
                output = path
            case .directory(let directory):
                chosen = format ?? AudioFileFormat(fileExtensionOf: input) ?? .wav
                output = join(directory, stem(of: input) + "." + chosen.fileExtension)
            }
            let encoding: AudioFileEncoding
            do {
                encoding = try AudioFileEncoding(format: chosen, bitDepth: bitDepth)
            } catch {
                throw Problem(message: error.message, isUsage: true)
            }
            jobs.append(RenderJob(input: input, output: output, encoding: encoding))
        }
        var seen: [String: String] = [:]
        for job in jobs {
            let key = normalized(job.output)
            if let other = seen[key] {
                throw Problem(message: "\(other) and \(job.input) would both be written to \(job.output); rename one or render them apart", isUsage: true)
            }
            seen[key] = job.input
            if key == normalized(job.input) {
                throw Problem(message: "\(job.output): the output would replace its own input; choose another -o or --output-dir", isUsage: true)
            }
        }
        return jobs
    }

    /// The file name without folder and last extension (`in/take.1.wav` → `take.1`).
    /// - Thread: [any]
    public static func stem(of path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// A path with `.` components and repeated slashes removed, for comparing plans.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }
}
