/// Gathers the problems of one source (a file or `--set`) with their positions, so that
/// every problem is reported at once and in file order.
/// - Thread: [control]; one collector per load.
struct ProblemCollector {
    let file: String
    /// Where each path's value begins, when the source was parsed JSON.
    var positions: [JSONPath: JSONPosition] = [:]
    private(set) var problems: [PresetProblem] = []

    init(file: String) { self.file = file }

    /// Records a problem at `path`; the position is the given one, else the path's (or its
    /// nearest parent's) when the source was parsed.
    mutating func add(_ kind: PresetProblem.Kind, _ path: JSONPath, _ message: String, at position: JSONPosition? = nil) {
        var located = position
        var probe = path
        while located == nil {
            located = positions[probe]
            if probe.components.isEmpty { break }
            probe.components.removeLast()
        }
        problems.append(PresetProblem(kind, file: file, path: path.description, message: message, line: located?.line, column: located?.column))
    }

    mutating func add(contentsOf other: ProblemCollector) { problems += other.problems }

    /// The problems, in file order: by position where known (stable otherwise).
    var sortedProblems: [PresetProblem] {
        problems.enumerated().sorted { left, right in
            switch (left.element.line, right.element.line) {
            case let (leftLine?, rightLine?):
                let leftKey = (leftLine, left.element.column ?? 0), rightKey = (rightLine, right.element.column ?? 0)
                return leftKey != rightKey ? leftKey < rightKey : left.offset < right.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return left.offset < right.offset
            }
        }.map(\.element)
    }

    /// Records where every value of a parsed document begins.
    mutating func recordPositions(of node: JSONNode, at path: JSONPath = .root) {
        positions[path] = node.position
        switch node.value {
        case .object(let members):
            for member in members where positions[path.key(member.key)] == nil {
                recordPositions(of: member.value, at: path.key(member.key))
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { recordPositions(of: element, at: path.index(index)) }
        default:
            break
        }
    }
}
