import Foundation
import Testing

/// Every Apple-described unit `auhost` reaches (AUAppleUnits: manufacturer `appl`) passes
/// `auhost validate` at strictness 10, each named by its description; the five device
/// outputs on the null device and on the file device here, on JACK in
/// DeviceOutputValidateLiveTests.
@Suite struct AppleUnitValidateTests {
    static let units = [
        "auou:genr:appl", "aumx:mcmx:appl", "aufx:ipeq:appl", "aufc:conv:appl", "aufc:splt:appl",
        "aufx:lpas:appl", "aufx:hpas:appl", "aufx:bpas:appl", "aufx:lshf:appl", "aufx:hshf:appl", "aufx:pmeq:appl",
        "aufx:lmtr:appl", "aufx:dcmp:appl", "aufx:dely:appl", "aufx:rvb2:appl", "aufx:nbeq:appl",
        "augn:afpl:appl", "augn:sspl:appl", "aumu:samp:appl", "aumu:dls :appl", "aumu:msyn:appl",
    ]

    /// Apple's device outputs: all play on the output device (AUHOST_DEVICE).
    static let deviceOutputs = ["auou:rioc:appl", "auou:def :appl", "auou:sys :appl", "auou:ahal:appl", "auou:vpio:appl"]

    /// `auhost validate` of the five at strictness 10 on `device`, every unit passing and its
    /// `output-device` line saying `arrival` (one job at a time on the file device: the five
    /// write one file).
    static func validateDeviceOutputs(device: [String: String], jobs: Int, arrival: String) throws {
        let run = try ValidateRun.run(
            ["validate"] + deviceOutputs + ["--strictness", "10", "--jobs", "\(jobs)", "--seed", "3", "--timeout", "300"], plugins: nil, device: device)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        for unit in deviceOutputs { #expect(run.output.contains("  PASS  \(unit)"), "\(unit) did not pass:\n\(run.output)") }
        let deviceLines = run.output.split(separator: "\n").filter { $0.contains("output-device") }
        #expect(deviceLines.count == deviceOutputs.count && deviceLines.allSatisfy { $0.contains("PASS") && $0.contains(arrival) }, "\(run.output)")
        #expect(run.output.contains("summary: 5 units, 5 passed, 0 failed"), "\(run.output)")
    }

    @Test func everyDeviceOutputPassesAtStrictness10OnTheNullDevice() throws {
        try Self.validateDeviceOutputs(device: ["AUHOST_DEVICE": "null"], jobs: 2, arrival: "on the null device")
    }

    @Test func everyDeviceOutputPassesAtStrictness10OnTheFileDevice() throws {
        let folder = try CLibraryFixtures.makeFolder("validate-file-device")
        let path = folder.appendingPathComponent("device.wav").path
        try Self.validateDeviceOutputs(device: ["AUHOST_DEVICE": "file:\(path)"], jobs: 1, arrival: "frames in \(path) equal the callback's")
    }

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
        for unit in Self.units + Self.deviceOutputs { #expect(run.output.contains(unit), "\(unit) missing from auhost list:\n\(run.output)") }
    }
}
