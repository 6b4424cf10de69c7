import AUCore
@testable import AUNative
import CAUPluginABI
import Testing

/// The parameter units are defined once, in `auhost_plugin.h`: the loader reads every one of
/// them as the host unit of the same Core Audio value.
@Suite struct ParameterUnitTests {
    @Test func everyHostUnitIsTheHeadersValueOfTheSameNumber() {
        for unit in ParameterUnit.allCases {
            #expect(ParameterUnit(pluginABIValue: unit.rawValue) == unit, "\(unit)")
        }
    }

    @Test func anUnknownValueIsGeneric() {
        #expect(ParameterUnit(pluginABIValue: AUHOST_PARAMETER_UNIT_CUSTOM_UNIT + 1) == .generic)
        #expect(ParameterUnit(pluginABIValue: AUHOST_PARAMETER_UNIT_OCTAVES) == .octaves)
    }
}
