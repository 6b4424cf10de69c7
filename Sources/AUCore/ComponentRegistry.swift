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
    /// contain it or are within a few edits of it (``isCloseMatch(distance:to:)``). When
    /// none is that close, the five nearest. Only the first ``comparedNameLength``
    /// characters of `text` and of each key count.
    /// - Thread: [control]
    public func closeMatches(to text: String) -> [Component] {
        let scored = componentsByDistance(to: text)
        let close = scored.prefix { isCloseMatch(distance: $0.distance, to: text) }
        return (close.isEmpty ? scored.prefix(5) : close).map(\.item)
    }

    /// Up to `limit` references close to `text`, by edit distance to names, codes and URIs;
    /// only the first ``comparedNameLength`` characters of `text` and of each key count.
    /// - Thread: [control]
    public func closestMatches(to text: String, limit: Int = 5) -> [String] {
        componentsByDistance(to: text).prefix(limit).map(\.item.referenceLine)
    }

    /// Every component with its distance to `text` (``nearest(_:to:keys:)``), nearest
    /// first, ties by reference line.
    private func componentsByDistance(to text: String) -> [(distance: Int, item: Component)] {
        nearest(components.sorted { $0.referenceLine < $1.referenceLine }, to: text) {
            [$0.name, $0.description.description, $0.identifier]
        }
    }

    /// Resolves and instantiates in one step.
    /// - Thread: [control]
    public func instantiate(_ reference: String) throws(AudioUnitError) -> AudioUnit {
        try resolve(reference).instantiate()
    }
}
