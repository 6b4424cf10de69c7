import Foundation

/// Every unit AUHost can make, over all backends (`AudioComponentFindNext`, `…Count`,
/// `AudioComponentInstanceNew`): enumerate, find by description with wildcards, by LV2 URI,
/// by identifier or by exact name, and instantiate.
///
/// Providers are discovered when first needed, in order, each once: an `lv2:` reference
/// is resolved by the LV2 providers alone (no native library is loaded, no other backend
/// enumerated), so a command whose preset names only LV2 plugins starts without the rest;
/// anything that reads every component (``components``, ``problems``, a search, a name)
/// discovers them all first.
/// - Thread: [control] (discovery is serialized: any control thread may ask)
public final class ComponentRegistry: @unchecked Sendable {
    /// What was added, in order: providers (discovered or not yet) and single components.
    private enum Entry {
        case provider(any ComponentProvider, found: (components: [Component], problems: [DiscoveryProblem])?)
        case component(Component)
    }

    private var entries: [Entry] = []
    private let lock = NSLock()

    /// An empty registry; add providers with ``add(_:)``.
    /// - Thread: [control]
    public init() {}

    /// A registry over the given providers, discovered in order when first needed.
    /// - Thread: [control]
    public convenience init(providers: [any ComponentProvider]) {
        self.init()
        for provider in providers { add(provider) }
    }

    /// Every component, in registry order (providers in the order added, then each
    /// component where it was registered); discovers what is not yet.
    /// - Thread: [control]
    public var components: [Component] { collected(where: { _ in true }).components }

    /// What discovery met on the way (files that are no plugin, libraries refused).
    /// - Thread: [control]
    public var problems: [DiscoveryProblem] { collected(where: { _ in true }).problems }

    /// Adds a provider, discovered when first needed.
    /// - Thread: [control]
    public func add(_ provider: any ComponentProvider) {
        lock.withLock { entries.append(.provider(provider, found: nil)) }
    }

    /// Adds one component (a test's unit, an application's own unit).
    /// - Thread: [control]
    public func register(_ component: Component) {
        lock.withLock { entries.append(.component(component)) }
    }

    /// The components and problems of the providers `needed` selects (discovering those not
    /// yet) and every registered component, in registry order.
    private func collected(where needed: (any ComponentProvider) -> Bool) -> (components: [Component], problems: [DiscoveryProblem]) {
        lock.withLock {
            var components: [Component] = [], problems: [DiscoveryProblem] = []
            for index in entries.indices {
                if case .provider(let provider, _) = entries[index], !needed(provider) { continue }
                let found = discovered(at: index)
                components += found.components
                problems += found.problems
            }
            return (components, problems)
        }
    }

    /// The components and problems of entry `index`, its provider discovered if it is not yet.
    /// Called with the lock held.
    private func discovered(at index: Int) -> (components: [Component], problems: [DiscoveryProblem]) {
        switch entries[index] {
        case .component(let component):
            return ([component], [])
        case .provider(let provider, let found):
            if let found { return found }
            let made = provider.discoverComponents()
            entries[index] = .provider(provider, found: made)
            return made
        }
    }

    /// The first component a search matches, in registry order: what
    /// `components(matching:).first` gives, discovering the providers in order only until one
    /// has it (a graph's built-in node never waits for the plugins' discovery).
    /// - Thread: [control]
    public func firstComponent(matching search: ComponentDescription) -> Component? {
        lock.withLock {
            for index in entries.indices {
                if let match = discovered(at: index).components.first(where: { Self.matches($0, search) }) { return match }
            }
            return nil
        }
    }

    /// Whether `component` answers `search`; unsearchable components answer only a search
    /// without wildcards.
    private static func matches(_ component: Component, _ search: ComponentDescription) -> Bool {
        let isExact = !search.type.isWildcard && !search.subtype.isWildcard && !search.manufacturer.isWildcard
        return search.matches(component.description) && (isExact || !component.description.componentFlags.contains(.unsearchable))
    }

    /// The components a search matches, in registry order (`AudioComponentFindNext`).
    /// Unsearchable components are found only by a search without wildcards.
    /// - Thread: [control]
    public func components(matching search: ComponentDescription) -> [Component] {
        components.filter { Self.matches($0, search) }
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
            // Only an LV2 provider (or a registered component) makes an LV2 component: the
            // other backends are discovered only if the LV2 ones have none of that URI.
            candidates = collected(where: { $0.format == .lv2 }).components.filter { $0.format == .lv2 && $0.identifier == uri }
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
