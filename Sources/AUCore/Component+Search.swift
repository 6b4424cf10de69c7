import Foundation

extension Component {
    /// The texts a search looks in: the name, the manufacturer's name, the type, subtype and
    /// manufacturer codes alone and joined (`aufx:gain:AUHs`), the identifier (LV2 URI,
    /// library path, built-in name) and the category.
    /// - Thread: [any]
    public var searchableTexts: [String] {
        [
            name, manufacturerName, description.type.description, description.subtype.description,
            description.manufacturer.description, description.description, identifier, category,
        ]
    }

    /// True when `text` occurs, case-insensitively, in one of ``searchableTexts``; an empty
    /// text matches every component.
    /// - Thread: [any]
    public func matches(searchText text: String) -> Bool {
        text.isEmpty || searchableTexts.contains { $0.range(of: text, options: .caseInsensitive) != nil }
    }

    /// The category as a word or two: ``category`` without the ` Plugin` that ends LV2's
    /// class labels (`Reverb Plugin` is `Reverb`, `Simulator Plugin` is `Simulator`).
    /// - Thread: [any]
    public var categoryName: String {
        category.hasSuffix(" Plugin") ? String(category.dropLast(" Plugin".count)) : category
    }

    /// True when the component's category is `name`, case-insensitively, with or without
    /// LV2's ` Plugin` (``categoryName``).
    /// - Thread: [any]
    public func isInCategory(_ name: String) -> Bool {
        [category, categoryName].contains { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// One line naming the component the way references and listings show it:
    /// `aufx:splt:AUHs  Splitter  (builtin: builtin:Splitter)`.
    /// - Thread: [any]
    public var referenceLine: String {
        "\(description)  \(name)  (\(format.rawValue): \(identifier))"
    }
}
