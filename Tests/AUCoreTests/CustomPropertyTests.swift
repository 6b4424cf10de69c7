import AUCore
import Testing

/// A unit with two properties of its own: a writable curve and a read-only version string.
final class CurveUnit: AudioUnit, @unchecked Sendable {
    static let curve = PropertyKey<[Float]>(custom: PropertyID(rawValue: 64000), size: { $0.count * MemoryLayout<Float>.size })
    static let version = PropertyKey<String>(custom: PropertyID(rawValue: 64001))
    static let inputTrim = PropertyKey<Double>(custom: PropertyID(rawValue: 64002))

    init() {
        super.init(
            description: ComponentDescription(type: "aufx", subtype: "crve", manufacturer: "Test"), name: "Curve",
            inputs: [.canonical(channels: 2, name: "In")], outputs: [.canonical(channels: 2, name: "Out")], parameters: [])
        declareProperty(Self.curve, initialValue: [0, 1])
        declareProperty(Self.version, initialValue: "1.0", isWritable: false)
        declareProperty(Self.inputTrim, scope: .input, element: 0, initialValue: 0)
    }
}

@Suite struct CustomPropertyTests {
    @Test func aCustomPropertyIsReadAndSetThroughTheTypedAPI() throws {
        let unit = CurveUnit()
        #expect(try unit.value(of: CurveUnit.curve) == [0, 1])
        try unit.setValue([0, 0.5, 1], for: CurveUnit.curve)
        #expect(try unit.value(of: CurveUnit.curve) == [0, 0.5, 1])
        try unit.setValue(-3, for: CurveUnit.inputTrim, scope: .input, element: 0)
        #expect(try unit.value(of: CurveUnit.inputTrim, scope: .input) == -3)
    }

    @Test func propertyInfoReportsItsSizeAndWritability() throws {
        let unit = CurveUnit()
        try unit.setValue([1, 2, 3], for: CurveUnit.curve)
        #expect(try unit.info(for: CurveUnit.curve) == PropertyInfo(size: 3 * 4, isWritable: true))
        #expect(try unit.info(for: CurveUnit.version) == PropertyInfo(size: MemoryLayout<String>.size, isWritable: false))
    }

    @Test func listenersHearOfChanges() throws {
        let unit = CurveUnit()
        let log = ListenerLog()
        unit.addPropertyListener(CurveUnit.curve.id) { log.property($0) }
        unit.addPropertyListener(CurveUnit.version.id) { log.property($0) }
        try unit.setValue([2], for: CurveUnit.curve)
        try unit.updateProperty(CurveUnit.version, to: "1.1")
        #expect(try unit.value(of: CurveUnit.version) == "1.1")
        #expect(log.properties == [
            PropertyChange(id: CurveUnit.curve.id, scope: .global, element: 0),
            PropertyChange(id: CurveUnit.version.id, scope: .global, element: 0),
        ])
    }

    @Test func errorsAreCoreAudios() throws {
        let unit = CurveUnit()
        let unknown = PropertyKey<Int>(custom: PropertyID(rawValue: 64999))
        #expect(throwsCode(.invalidProperty) { _ = try unit.value(of: unknown) })
        #expect(throwsCode(.invalidProperty) { try unit.setValue(1, for: unknown) })
        #expect(throwsCode(.invalidProperty) { _ = try unit.info(for: unknown) })
        #expect(throwsCode(.invalidProperty) { _ = try TestGainUnit().value(of: CurveUnit.curve) })
        #expect(throwsCode(.propertyNotWritable) { try unit.setValue("2.0", for: CurveUnit.version) })
        #expect(throwsCode(.invalidScope) { _ = try unit.value(of: CurveUnit.curve, scope: .output) })
        #expect(throwsCode(.invalidElement) { _ = try unit.value(of: CurveUnit.inputTrim, scope: .input, element: 1) })
        // The same ID read as another type is not the declared property.
        #expect(throwsCode(.invalidPropertyValue) { _ = try unit.value(of: PropertyKey<Int>(custom: CurveUnit.curve.id)) })
        #expect(CurveUnit.curve.description == "custom property 64000")
    }
}
