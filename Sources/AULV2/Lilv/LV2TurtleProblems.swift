import Foundation

/// What lilv and serd printed while reading bundles' Turtle (``StandardErrorCapture``), as
/// auhost says it: one problem per bundle folder, naming the file, line and column and what
/// serd found, e.g. `manifest.ttl:3:5: bad Turtle (bad verb)`. serd prints
/// `error: <path>:<line>:<column>: <what>` and lilv follows with
/// `lilv_world_load_file(): error: Error loading file `<uri>'`; the first message naming a
/// bundle's file with a position speaks for the bundle, the rest are folded into it.
/// - Thread: [any] (a plain value); made on the control thread.
struct LV2TurtleProblems {
    /// One bundle's problem.
    struct Problem: Equatable {
        /// The bundle folder.
        var bundle: String
        /// `<file>:<line>:<column>: bad Turtle (<what serd said>)`, or lilv's words when serd
        /// gave no position.
        var text: String
    }

    /// One problem per bundle, in the order first met.
    private(set) var problems: [Problem] = []
    /// The lines that name no file: not lilv's or serd's about Turtle, passed on as printed.
    private(set) var otherLines: [String] = []

    /// Reads captured standard-error text.
    init(captured: String) {
        for line in captured.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if let (path, text, positioned) = Self.parse(line) {
                let bundle = (path as NSString).deletingLastPathComponent
                if let index = problems.firstIndex(where: { $0.bundle == bundle }) {
                    // lilv's "Error loading file" after serd's positioned message adds nothing.
                    if positioned && !problems[index].text.contains("bad Turtle") { problems[index].text = text }
                } else {
                    problems.append(Problem(bundle: bundle, text: text))
                }
            } else {
                otherLines.append(line)
            }
        }
    }

    /// Writes the lines that were not lilv's or serd's back to standard error.
    func passOnOtherLines() {
        for line in otherLines { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// A serd line (`error: <path>:<line>:<column>: <what>`, positioned), a lilv line naming
    /// a `file://` URI or a serd line naming a path: the file's path and auhost's text for it.
    private static func parse(_ line: String) -> (path: String, text: String, positioned: Bool)? {
        if let match = line.wholeMatch(of: /(?:error|warning): (\/.+?):(\d+):(\d+): (.*)/) {
            let path = String(match.1)
            let name = (path as NSString).lastPathComponent
            return (path, "\(name):\(match.2):\(match.3): bad Turtle (\(match.4))", true)
        }
        if let match = line.wholeMatch(of: /lilv_\w+\(\): (?:error|warning): (.*?)`?(file:\/\/[^'`\s]+)'?(.*)/),
           let path = URL(string: String(match.2))?.path {
            let name = (path as NSString).lastPathComponent
            return (path, "\(name): \(match.1.trimmingCharacters(in: .whitespaces).lowercased())", false)
        }
        // serd's "error: failed to open file <path> (<reason>)": a folder without a manifest.
        if let match = line.wholeMatch(of: /(?:error|warning): (.*?) (\/\S+)(.*)/) {
            let path = String(match.2)
            let name = (path as NSString).lastPathComponent
            return (path, "\(name): \(match.1)\(match.3)", false)
        }
        return nil
    }
}
