import AUCore
import Foundation

/// Derives the manufacturer and subtype four-char codes of LV2 plugins (the rule in
/// docs/LV2.md): readable, the same on every run and machine for the same installed set,
/// and unique over it.
///
/// - Manufacturer, from the maker (author name, else project name, else the URI's host):
///   ASCII letters and digits of its words, each word capitalised, two characters from each
///   of the first words, filled up from the rest (`Steve Harris` → `StHa`, `gareus` → `Gare`).
/// - Subtype, from the URI's last path segment and fragment, lower-case:
///   without a fragment, the segment abbreviated to four (`amp` → `amp `, `JX10` → `jx10`);
///   with one, the segment's first character and the fragment abbreviated to three
///   (`meters#VUmono` → `mvmn`). Abbreviating keeps the first character then the next
///   consonants and digits, or the plain prefix when there are too few.
/// - Collisions: makers whose codes clash are sorted by maker text; the first keeps the
///   code, the n-th has its last character replaced by the n-th of `1…9A…Z`. Plugins whose
///   subtypes clash under one manufacturer are sorted by URI and resolved the same way
///   (lower-case `1…9a…z`), skipping codes already taken.
/// - Thread: [any]
enum LV2ComponentCodes {
    struct Entry {
        var uri: String
        var maker: String
    }

    static let manufacturerSuffixes = Array("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    static let subtypeSuffixes = Array("123456789abcdefghijklmnopqrstuvwxyz")

    /// The codes of every plugin, by URI.
    static func assign(_ entries: [Entry]) -> [String: (manufacturer: AUCore.FourCharCode, subtype: AUCore.FourCharCode)] {
        // Manufacturers: one code per distinct maker.
        let makers = Set(entries.map(\.maker)).sorted()
        var makerCode: [String: String] = [:]
        var takenManufacturers: Set<String> = []
        var clashes: [String: Int] = [:]
        for maker in makers {
            let base = manufacturerBase(maker)
            var code = base
            if takenManufacturers.contains(code) {
                var attempt = clashes[base, default: 0]
                repeat {
                    code = replacingLast(base, with: manufacturerSuffixes[attempt % manufacturerSuffixes.count])
                    attempt += 1
                } while takenManufacturers.contains(code) && attempt < 4 * manufacturerSuffixes.count
                clashes[base] = attempt
            }
            takenManufacturers.insert(code)
            makerCode[maker] = code
        }
        // Subtypes: unique within each manufacturer.
        var result: [String: (manufacturer: AUCore.FourCharCode, subtype: AUCore.FourCharCode)] = [:]
        var takenSubtypes: [String: Set<String>] = [:]
        for entry in entries.sorted(by: { $0.uri < $1.uri }) {
            let manufacturer = makerCode[entry.maker]!
            let base = subtypeBase(uri: entry.uri)
            var code = base
            var attempt = 0
            while takenSubtypes[manufacturer, default: []].contains(code) {
                let suffix = subtypeSuffixes[attempt % subtypeSuffixes.count]
                code = base.count < 4 ? base + String(suffix) : replacingLast(base, with: suffix)
                if attempt >= subtypeSuffixes.count {
                    code = String(base.prefix(2)) + String(subtypeSuffixes[attempt / subtypeSuffixes.count % subtypeSuffixes.count]) + String(suffix)
                }
                attempt += 1
            }
            takenSubtypes[manufacturer, default: []].insert(code)
            result[entry.uri] = (AUCore.FourCharCode(parsing: manufacturer)!, AUCore.FourCharCode(parsing: code)!)
        }
        return result
    }

    /// Two characters from each capitalised word, four in all.
    static func manufacturerBase(_ maker: String) -> String {
        let words = asciiWords(maker).map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        var code = ""
        for word in words where code.count < 4 { code += word.prefix(min(2, 4 - code.count)) }
        if code.count < 4 { code += words.joined().dropFirst(code.count).prefix(4 - code.count) }
        while code.count < 4 { code += "x" }
        return code
    }

    /// The subtype from a URI's last segment and fragment.
    static func subtypeBase(uri: String) -> String {
        var text = uri
        var fragment = ""
        if let hash = text.lastIndex(of: "#") {
            fragment = asciiWords(String(text[text.index(after: hash)...])).joined().lowercased()
            text = String(text[..<hash])
        }
        while text.hasSuffix("/") { text.removeLast() }
        let segmentText = text.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? text
        let segment = asciiWords(segmentText).joined().lowercased()
        if fragment.isEmpty {
            return segment.isEmpty ? "lv2 " : abbreviate(segment, to: 4)
        }
        return String((segment.first ?? fragment.first)!) + abbreviate(fragment, to: 3)
    }

    /// The first character, then following consonants and digits; the prefix if too few.
    static func abbreviate(_ text: String, to length: Int) -> String {
        guard text.count > length else { return text }
        var result = String(text.first!)
        for character in text.dropFirst() where !"aeiou".contains(character) && result.count < length {
            result.append(character)
        }
        return result.count == length ? result : String(text.prefix(length))
    }

    private static func asciiWords(_ text: String) -> [String] {
        let folded = text.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        return folded.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }).map(String.init)
    }

    private static func replacingLast(_ code: String, with character: Character) -> String {
        String(code.prefix(3)) + String(character)
    }
}
