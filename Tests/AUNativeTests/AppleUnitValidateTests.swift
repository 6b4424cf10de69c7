import Foundation
import Testing

/// Every Apple-described unit `auhost` reaches (AUAppleUnits: manufacturer `appl`) passes
/// `auhost validate` at strictness 10, each named by its description. Apple's device outputs
/// are the AudioToolbox library's alone (they play on its output device), so they are not
/// among them.
@Suite struct AppleUnitValidateTests {
    static let units = [
        "auou:genr:appl", "aumx:mcmx:appl", "aufx:ipeq:appl", "aufc:conv:appl", "aufc:splt:appl",
        "aufx:lpas:appl", "aufx:hpas:appl", "aufx:bpas:appl", "aufx:lshf:appl", "aufx:hshf:appl", "aufx:pmeq:appl",
        "aufx:lmtr:appl", "aufx:dcmp:appl", "aufx:dely:appl", "aufx:rvb2:appl", "aufx:nbeq:appl",
        "augn:afpl:appl", "augn:sspl:appl", "aumu:samp:appl", "aumu:dls :appl", "aumu:msyn:appl",
    ]

    @Test func everyAppleUnitPassesAtStrictness10() throws {
        let run = try ValidateRun.run(["validate"] + Self.units + ["--strictness", "10", "--jobs", "2", "--seed", "3", "--timeout", "300"], plugins: nil)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        for unit in Self.units {
            #expect(run.output.contains("  PASS  \(unit)"), "\(unit) did not pass:\n\(run.output)")
        }
        #expect(run.output.contains("summary: \(Self.units.count) units, \(Self.units.count) passed, 0 failed"), "\(run.output)")
    }

    @Test func auhostListsEveryAppleUnit() throws {
        let run = try ValidateRun.run(["list", "--manufacturer", "appl"], plugins: nil)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        for unit in Self.units { #expect(run.output.contains(unit), "\(unit) missing from auhost list:\n\(run.output)") }
    }
}
