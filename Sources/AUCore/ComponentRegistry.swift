import Foundation

/// Every unit AUHost can make, over all backends (`AudioComponentFindNext`, `…Count`,
/// `AudioComponentInstanceNew`): enumerate, find by description with wildcards, by LV2 URI,
/// by identifier or by exact name, and instantiate.
/// - Thread: [control]
public final class ComponentRegistry: @unchecked Sendable {
    public private(set) var components: [Component] = []
    public private(set) var problems: [DiscoveryProblem] = []

    /// An empty registry; add providers with ``add(_:)``.
    /// - Thread: [control]
    public init() {}

    /// A registry over the given providers, discovered in order.
    /// - Thread: [control]
    public convenience init(providers: [any ComponentProvider]) {
        self.init()
        for provider in providers { add(provider) }
    }

    /// Discovers a provider's components and adds them.
    /// - Thread: [control]
    public func add(_ provider: any ComponentProvider) {
        let found = provider.discoverComponents()
        components += found.components
        problems += found.problems
    }

    /// Adds one component (a test's unit, an application's own unit).
    /// - Thread: [control]
    public func register(_ component: Component) {
        components.append(component)
    }

    /// The components a search matches, in registry order (`AudioComponentFindNext`).
    /// Unsearchable components are found only by a search without wildcards.
    /// - Thread: [control]
    public func components(matching search: ComponentDescription) -> [Component] {
        let isExact = !search.type.isWildcard && !search.subtype.isWildcard && !search.manufacturer.isWildcard
        return components.filter {
            search.matches($0.description) && (isExact || !$0.description.componentFlags.contains(.unsearchable))
        }
    }

    /// How many components a search matches (`AudioComponentCount`).
    /// - Thread: [control]
    public func count(matching search: ComponentDescription) -> Int { components(matching: search).count }

    /// The longest reference ``resolve(_:)`` looks up, in characters (a URI is far shorter).
    public static let maximumReferenceLength = 1024
    /// How many characters of a reference the closest-match search compares (the edit
    /// distance costs the product of the lengths).
    public static let comparedReferenceLength = 128

    /// Finds the one component a user's reference names: `type:subtype:manufacturer`,
    /// `lv2:URI`, a bare URI, an identifier, or an exact name (case-insensitive if unique).
    /// An unknown reference lists the closest names; an ambiguous one lists the candidates;
    /// one longer than ``maximumReferenceLength`` is refused unsearched.
    /// - Thread: [control]
    public func resolve(_ reference: String) throws(AudioUnitError) -> Component {
        let length = reference.count
        guard length <= Self.maximumReferenceLength else {
            throw AudioUnitError(
                .extensionNotFound,
                "the unit reference is \(length) characters long; expected a name, type:subtype:manufacturer or URI of at most \(Self.maximumReferenceLength)")
        }
        let text = reference.trimmingCharacters(in: .whitespaces)
        var candidates: [Component] = []
        if text.hasPrefix("lv2:") {
            let uri = String(text.dropFirst(4))
            candidates = components.filter { $0.format == .lv2 && $0.identifier == uri }
        } else if text.contains("://") || text.hasPrefix("urn:") {
            candidates = components.filter { $0.identifier == text }
        } else if let search = ComponentDescription(parsing: text), text.split(separator: ":").count == 3 {
            candidates = components(matching: search)
        }
        if candidates.isEmpty { candidates = components.filter { $0.identifier == text } }
        if candidates.isEmpty { candidates = components.filter { $0.name == text } }
        if candidates.isEmpty { candidates = components.filter { $0.name.caseInsensitiveCompare(text) == .orderedSame } }
        if candidates.count == 1 { return candidates[0] }
        if candidates.count > 1 {
            throw AudioUnitError(
                .invalidPropertyValue,
                "'\(reference)' is ambiguous: \(candidates.count) units match; name one by type:subtype:manufacturer or URI:\n"
                    + Self.screenful(candidates))
        }
        let suggestions = closeMatches(to: text)
        throw AudioUnitError(
            .extensionNotFound,
            "no unit '\(reference)'" + (suggestions.isEmpty ? "" : "; closest matches:\n" + Self.screenful(suggestions)))
    }

    /// How many components an unknown or ambiguous reference lists, one line each, before
    /// a last line `and N more`: a screenful.
    public static let listedMatchLimit = 20

    /// The components as indented reference lines, at most ``listedMatchLimit`` of them and
    /// then `and N more`.
    private static func screenful(_ components: [Component]) -> String {
        var lines = components.prefix(listedMatchLimit).map { "  \($0.referenceLine)" }
        if components.count > listedMatchLimit { lines.append("  and \(components.count - listedMatchLimit) more") }
        return lines.joined(separator: "\n")
    }

    /// Every component close to `text`, closest first: those whose name, codes or URI
    /// contain it or are within a few edits of it (a third of its length, at least two). When
    /// none is that close, the five nearest. Only the first ``comparedReferenceLength``
    /// characters of `text` and of each key count.
    /// - Thread: [control]
    public func closeMatches(to text: String) -> [Component] {
        let scored = componentsByDistance(to: text)
        let threshold = max(2, min(text.count, Self.comparedReferenceLength) / 3)
        let close = scored.prefix { $0.distance <= threshold }
        return (close.isEmpty ? scored.prefix(5) : close).map(\.component)
    }

    /// Up to `limit` references close to `text`, by edit distance to names, codes and URIs;
    /// only the first ``comparedReferenceLength`` characters of `text` and of each key count.
    /// - Thread: [control]
    public func closestMatches(to text: String, limit: Int = 5) -> [String] {
        componentsByDistance(to: text).prefix(limit).map(\.component.referenceLine)
    }

    /// Every component with its edit distance to `text` (0 when a key contains it), nearest
    /// first, ties by reference line.
    private func componentsByDistance(to text: String) -> [(distance: Int, component: Component)] {
        let needle = String(text.prefix(Self.comparedReferenceLength)).lowercased()
        let scored = components.map { component -> (distance: Int, line: String, component: Component) in
            let keys = [component.name, component.description.description, component.identifier]
            let distance = keys.map { key -> Int in
                let lowered = String(key.prefix(Self.comparedReferenceLength)).lowercased()
                return lowered.contains(needle) && !needle.isEmpty ? 0 : editDistance(needle, lowered)
            }.min() ?? .max
            return (distance, component.referenceLine, component)
        }
        return scored.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.line < $1.line) }
            .map { ($0.distance, $0.component) }
    }

    /// Resolves and instantiates in one step.
    /// - Thread: [control]
    public func instantiate(_ reference: String) throws(AudioUnitError) -> AudioUnit {
        try resolve(reference).instantiate()
    }
}

/// The Levenshtein distance between two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

