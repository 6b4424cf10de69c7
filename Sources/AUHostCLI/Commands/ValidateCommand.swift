import AUHost
import AUValidate
import Foundation

/// `auhost validate UNIT…`: auval and pluginval for every unit AUHost loads. Each unit's
/// tests run in child processes (`validate --child`, ValidateCommand+Child.swift), so a
/// crash or a hang is a FAIL naming the test; the verdicts are cached for `list --validated`.
/// - Thread: [control]
enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "validate units: auval / pluginval tests in child processes (docs/VALIDATE.md)"
    static var help: String {
        let width = ValidationCatalogue.tests.map(\.name.count).max() ?? 0
        let tests = ValidationCatalogue.tests.map { "  \(String($0.strictness).padding(toLength: 3, withPad: " ", startingAt: 0))\($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            usage: auhost validate UNIT... [--strictness 1..10] [--sample-rates 44100,48000,96000]
                                   [--block-sizes 1,17,64,512,4096] [--seed N] [--timeout S] [--jobs N]
                                   [--json] [--junit FILE] [--only REGEX] [--skip REGEX]
                   auhost validate --all [--type T] [--format lv2|native|builtin] [OPTIONS]

            Runs the tests below on each unit, each unit in child processes: a unit that crashes,
            aborts or hangs fails the test it was in, and the others still run. Prints a line per
            test (PASS, WARN, FAIL or SKIP, with the seed on every line that did not pass) and the
            counts per unit; with several units, a summary. Exits 0 when every unit passes (warnings
            allowed), 1 when one fails, 64 for usage. Verdicts are cached for 'auhost list --validated'.

              --strictness N    1 to 10 (default 5): runs the tests of level N and below; higher
                                levels do more (bit-identical state and reset from 8)
              --sample-rates L  the render test's rates (default 44100,48000,96000)
              --block-sizes L   the render test's block sizes (default 1,17,64,512,4096)
              --seed N          the seed of every random choice (default: a new one, printed)
              --timeout S       seconds one test may take before it counts as hung (default 30)
              --jobs N          units validated side by side (default 1)
              --only REGEX      only the tests whose names match
              --skip REGEX      not the tests whose names match
              --json            a JSON array of units with their tests (see docs/VALIDATE.md)
              --junit FILE      also write a JUnit XML report to FILE
              --all             every unit (but I/O units), filtered by --type and --format

            tests (strictness, name, what it checks):
            \(tests.joined(separator: "\n"))

            """
    }

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        if arguments.flag("--child") { return try runChild(&arguments, context) }
        let settings = try parseSettings(&arguments, seedDefault: UInt64.random(in: 1...999_999))
        let timeout = try arguments.option("--timeout", expected: "a number of seconds above 0") { Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } } ?? 30
        let jobs = try arguments.option("--jobs", expected: "a whole number from 1 to 64") { Int($0).flatMap { (1...64).contains($0) ? $0 : nil } } ?? 1
        let only = try arguments.option("--only", expected: "a regular expression") { try? NSRegularExpression(pattern: $0) }
        let skip = try arguments.option("--skip", expected: "a regular expression") { try? NSRegularExpression(pattern: $0) }
        let json = arguments.flag("--json")
        let junit = try arguments.option("--junit")
        let all = arguments.flag("--all")
        let type = try arguments.option("--type", expected: "a code of 1 to 4 characters") { FourCharCode(parsing: $0) }
        let format = try arguments.option("--format", expected: "lv2, native or builtin", ComponentFormat.init(rawValue:))
        let references = try arguments.finish(positionals: all ? 0...0 : 1...Int.max, names: "a UNIT (or --all)")
        if !all && (type != nil || format != nil) { throw .usage("--type and --format choose units for --all", command: name) }
        let tests = ValidationCatalogue.selected(strictness: settings.strictness, only: only, skip: skip)
        guard !tests.isEmpty else { throw .usage("no test is left at strictness \(settings.strictness) with --only and --skip", command: name) }
        let junitFile = try junit.map { path throws(CLIError) in try openReport(path) }

        var units: [Component] = []
        if all {
            let search = ComponentDescription(type: type ?? .wildcard, subtype: .wildcard, manufacturer: .wildcard)
            units = context.registry.components(matching: search).filter { ($0.format == format || format == nil) && $0.description.type != ComponentType.output }
        } else {
            for reference in references {
                do { units.append(try context.registry.resolve(reference)) } catch { throw CLIError(error.message) }
            }
        }
        guard !units.isEmpty else { throw CLIError("no unit to validate") }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let runner = ValidationRunner(executable: executable, settings: settings, timeout: timeout)
        if runner.shim == nil { context.errors.line("auhost: warning: \(RenderThreadCounter.libraryName) is not beside auhost: render-allocations will be skipped") }
        context.errors.line("auhost: validating \(units.count) unit\(units.count == 1 ? "" : "s") at strictness \(settings.strictness) with seed \(settings.seed): \(tests.count) tests each")
        let started = Date()
        let output = context.output
        let results = runner.validate(units, tests: tests, jobs: jobs) { validation in
            if !json { for line in validation.textLines { output.line(line) } }
        }
        let seconds = Date().timeIntervalSince(started)
        recordVerdicts(results, units: units, executable: executable, context: context)
        if json { context.output.line(try JSONOutput.encode(results)) } else if results.count > 1 { printSummary(results, seconds: seconds, context) }
        if let junitFile, let path = junit {
            do throws(AtomicFileFailure) {
                try junitFile.write(Data(JUnitReport.xml(results).utf8))
                try junitFile.commit()
            } catch {
                throw CLIError(AudioUnitError.output(path, error).message)
            }
        }
        return results.allSatisfy(\.passed) ? 0 : CLIError.failureStatus
    }

    /// The settings options, shared by the parent and the child.
    static func parseSettings(_ arguments: inout Arguments, seedDefault: UInt64) throws(CLIError) -> ValidationSettings {
        var settings = ValidationSettings()
        settings.strictness = try arguments.option("--strictness", expected: "a whole number from 1 to 10") { Int($0).flatMap { (1...10).contains($0) ? $0 : nil } } ?? 5
        settings.sampleRates = try arguments.option("--sample-rates", expected: "sample rates from 8000 to 384000, separated by commas") { text in
            let rates = text.split(separator: ",").map { Double($0) }
            return rates.isEmpty || rates.contains { $0 == nil || !(8_000...384_000).contains($0!) } ? nil : rates.map { $0! }
        } ?? settings.sampleRates
        settings.blockSizes = try arguments.option("--block-sizes", expected: "block sizes from 1 to 8192, separated by commas") { text in
            let sizes = text.split(separator: ",").map { Int($0) }
            return sizes.isEmpty || sizes.contains { $0 == nil || !(1...8192).contains($0!) } ? nil : sizes.map { $0! }
        } ?? settings.blockSizes
        settings.seed = try arguments.option("--seed", expected: "a whole number from 0 to 18446744073709551615") { UInt64($0) } ?? seedDefault
        return settings
    }

    private static func openReport(_ path: String) throws(CLIError) -> AtomicFile {
        do throws(AtomicFileFailure) {
            return try AtomicFile(destination: path, overwrite: true)
        } catch {
            throw CLIError(AudioUnitError.output(path, error).message)
        }
    }

    private static func printSummary(_ results: [UnitValidation], seconds: Double, _ context: CommandContext) {
        let failed = results.filter { !$0.passed }
        context.output.line("")
        context.output.line("summary: \(results.count) units, \(results.count - failed.count) passed, \(failed.count) failed (\(String(format: "%.1f", seconds)) s)")
        for unit in results {
            let verdict = unit.passed ? "PASS" : "FAIL"
            let detail = unit.passed ? unit.countsLine : unit.failedTests.joined(separator: ", ")
            context.output.line("  \(verdict)  \(unit.unit)  \(ListCommand.column(unit.name, 32))  \(detail)")
        }
    }

    /// Caches every verdict beside the probe's; a cache that cannot be written is a warning.
    private static func recordVerdicts(_ results: [UnitValidation], units: [Component], executable: URL, context: CommandContext) {
        var cache = ValidationCache(hostVersion: AUHostCLI.version)
        let lv2Binaries = units.contains { $0.format == .lv2 } ? LV2Provider().binaryPaths() : [:]
        for (unit, validation) in zip(units, results) {
            cache.record(validation, component: unit, binary: ValidationCache.binary(of: unit, lv2Binaries: lv2Binaries, hostExecutable: executable.path))
        }
        do { try cache.save() } catch { context.errors.line("auhost: warning: the validation verdicts could not be cached: \(error)") }
    }
}
