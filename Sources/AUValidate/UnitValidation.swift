import AUCore
import Foundation

/// What `auhost validate` found about one unit: a result per test, and the run's settings.
/// - Thread: [any] (a plain value).
public struct UnitValidation: Codable, Sendable {
    /// One test's line.
    /// - Thread: [any]
    public struct TestRecord: Codable, Sendable {
        public var name: String
        public var status: ValidationResult.Status
        public var message: String
        /// Seconds the test ran in its child (0 when the child died in it).
        public var seconds: Double
    }

    /// type:subtype:manufacturer.
    public var unit: String
    public var name: String
    public var format: String
    public var identifier: String
    public var strictness: Int
    public var seed: UInt64
    public var seconds: Double
    public var tests: [TestRecord]

    /// - Thread: [any]
    public init(component: Component, settings: ValidationSettings, seconds: Double, tests: [TestRecord]) {
        unit = component.description.description
        name = component.name
        format = component.format.rawValue
        identifier = component.identifier
        strictness = settings.strictness
        seed = settings.seed
        self.seconds = seconds
        self.tests = tests
    }

    /// How many tests ended with `status`.
    /// - Thread: [any]
    public func count(_ status: ValidationResult.Status) -> Int { tests.filter { $0.status == status }.count }

    /// True when no test failed.
    /// - Thread: [any]
    public var passed: Bool { count(.fail) == 0 }

    /// The names of the failed tests.
    /// - Thread: [any]
    public var failedTests: [String] { tests.filter { $0.status == .fail }.map(\.name) }

    /// "21 tests, 18 passed, 1 warnings, 1 failed, 1 skipped".
    /// - Thread: [any]
    public var countsLine: String {
        "\(tests.count) tests, \(count(.pass)) passed, \(count(.warn)) warnings, \(count(.fail)) failed, \(count(.skip)) skipped"
    }

    /// The report's lines for this unit: a heading, a line per test (with the seed on each
    /// that did not pass), and the counts.
    /// - Thread: [any]
    public var textLines: [String] {
        let width = tests.map(\.name.count).max() ?? 0
        var lines = ["\(unit)  \(name)  (\(format): \(identifier))"]
        for test in tests {
            let seedNote = test.status == .pass ? "" : "  [seed \(seed)]"
            lines.append("  \(test.status.rawValue)  \(test.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(test.message)\(seedNote)")
        }
        lines.append("  \(countsLine) (strictness \(strictness), seed \(seed), \(String(format: "%.1f", seconds)) s)")
        return lines
    }
}

/// A run's reports for CI: JUnit XML, one test suite per unit.
/// - Thread: [any]
public enum JUnitReport {
    /// The XML document for `units`.
    /// - Thread: [any]
    public static func xml(_ units: [UnitValidation]) -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let failures = units.reduce(0) { $0 + $1.count(.fail) }, skipped = units.reduce(0) { $0 + $1.count(.skip) }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                     "<testsuites name=\"auhost validate\" tests=\"\(units.reduce(0) { $0 + $1.tests.count })\" failures=\"\(failures)\" skipped=\"\(skipped)\">"]
        for unit in units {
            lines.append("  <testsuite name=\"\(escape(unit.unit + " " + unit.name))\" tests=\"\(unit.tests.count)\" failures=\"\(unit.count(.fail))\" skipped=\"\(unit.count(.skip))\" time=\"\(String(format: "%.3f", unit.seconds))\">")
            lines.append("    <properties><property name=\"seed\" value=\"\(unit.seed)\"/><property name=\"strictness\" value=\"\(unit.strictness)\"/><property name=\"identifier\" value=\"\(escape(unit.identifier))\"/></properties>")
            for test in unit.tests {
                let open = "    <testcase classname=\"\(escape(unit.unit))\" name=\"\(escape(test.name))\" time=\"\(String(format: "%.3f", test.seconds))\""
                switch test.status {
                case .pass: lines.append(open + "/>")
                case .fail: lines.append(open + "><failure message=\"\(escape(test.message))\"/></testcase>")
                case .skip: lines.append(open + "><skipped message=\"\(escape(test.message))\"/></testcase>")
                case .warn: lines.append(open + "><system-out>WARN \(escape(test.message))</system-out></testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }
}
