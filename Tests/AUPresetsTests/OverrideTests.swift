import AUCore
@testable import AUPresets
import Foundation
import Testing

@Suite struct OverrideTests {
    @Test(arguments: [
        ("comp.threshold=-18", "comp", "threshold", PresetParameterValue.number(-18)),
        ("eq.mode=Warm", "eq", "mode", .named("Warm")),
        ("mix.in.1.gain=0.5", "mix", "in.1.gain", .number(0.5)),
        ("eq.preset=Bass Boost", "eq", "preset", .named("Bass Boost")),
        ("eq.gain=1e-3", "eq", "gain", .number(0.001)),
        ("eq.label=a=b", "eq", "label", .named("a=b")),
    ])
    func parsesNodeParamAndValue(text: String, node: String, parameter: String, value: PresetParameterValue) throws {
        let override = try ParameterOverride(parsing: text)
        #expect(override == ParameterOverride(node: node, parameter: parameter, value: value))
    }

    @Test(arguments: [
        ("gain", "--set: gain: expected NODE.PARAM=VALUE (such as comp.threshold=-18), found no '='"),
        ("gain=3", "--set: gain=3: expected NODE.PARAM=VALUE (such as comp.threshold=-18), found no '.' between the node and the parameter"),
        (".gain=3", "--set: .gain=3: expected NODE.PARAM=VALUE (such as comp.threshold=-18), found no node id before '.'"),
        ("eq.=3", "--set: eq.=3: expected NODE.PARAM=VALUE (such as comp.threshold=-18), found no parameter after '.'"),
        ("eq.gain=", "--set: eq.gain=: expected NODE.PARAM=VALUE (such as comp.threshold=-18), found no value after '='"),
        ("eq.gain=nan", "--set: eq.gain=nan: expected a finite number or a value string, found \"nan\""),
    ])
    func malformedOverridesSayWhatWasExpected(text: String, message: String) {
        do {
            _ = try ParameterOverride(parsing: text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.problems.map(\.kind) == [.malformedOverride])
            #expect(error.description == message)
        }
    }

    @Test func everyMalformedOverrideIsReportedAtOnce() {
        do {
            _ = try ParameterOverride.parse(["a.b=1", "nope", "c.d=", "e.f=2"])
            Issue.record("parsed malformed overrides")
        } catch {
            #expect(error.problems.map(\.path) == ["nope", "c.d="])
        }
    }

    @Test func anOverrideIsCheckedAgainstALiveUnit() throws {
        let unit = FixtureEQ()
        let resolved = try ParameterOverride(parsing: "eq.mode=hot").resolve(against: unit)
        #expect(resolved.value == 2 && resolved.info.identifier == "mode")
        try resolved.apply(to: unit)
        #expect(try unit.parameterValue(2) == 2)
        do {
            _ = try ParameterOverride(parsing: "eq.gian=1").resolve(against: unit)
            Issue.record("resolved an unknown parameter")
        } catch {
            #expect(error.description == "--set: eq.gian: unknown parameter of 'Fixture EQ'; expected one of: gain, freq, mode")
        }
    }

    @Test func theDescriptionReadsAsTyped() throws {
        #expect(try ParameterOverride(parsing: "eq.gain=-6").description == "eq.gain=-6")
        #expect(try ParameterOverride(parsing: "eq.mode=Warm").description == "eq.mode=Warm")
    }
}
