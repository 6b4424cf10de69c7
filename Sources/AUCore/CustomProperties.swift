/// A unit's own properties, Core Audio's custom property IDs (64000 and up): each declared
/// value in a box of its own type, found by ID, scope and element. A read opens a box only
/// as the type it was declared with, so the value comes out as stored, never through `Any`.
/// - Thread: [control]
struct CustomPropertyStore {
    private struct Address: Hashable {
        var id: PropertyID
        var scope: Scope
        var element: Element
    }

    private var boxes: [Address: CustomPropertyBox] = [:]

    /// Adds a property, or replaces its value and writability when declared before.
    mutating func declare<Value>(_ id: PropertyID, scope: Scope, element: Element, initialValue: Value, isWritable: Bool) {
        boxes[Address(id: id, scope: scope, element: element)] = TypedCustomPropertyBox(initialValue, isWritable: isWritable)
    }

    /// Whether the property may be set from outside the unit.
    func isWritable(_ id: PropertyID) -> Bool {
        boxes.contains { $0.key.id == id && $0.value.isWritable }
    }

    func value<Value>(of id: PropertyID, as type: Value.Type, scope: Scope, element: Element, unit: String) throws(AudioUnitError) -> Value {
        try box(id, Value.self, scope: scope, element: element, unit: unit).value
    }

    /// Sets a property: `fromUnit` (the unit itself) may set a read-only one.
    func setValue<Value>(_ value: Value, of id: PropertyID, scope: Scope, element: Element, unit: String, fromUnit: Bool = false) throws(AudioUnitError) {
        let box = try box(id, Value.self, scope: scope, element: element, unit: unit)
        guard box.isWritable || fromUnit else { throw AudioUnitError(.propertyNotWritable, "\(unit): \(id) is read-only") }
        box.value = value
    }

    /// The box of a declared property; the error tells whether the ID, the scope or the
    /// element is unknown, or the type is not the declared one.
    private func box<Value>(_ id: PropertyID, _ type: Value.Type, scope: Scope, element: Element, unit: String) throws(AudioUnitError) -> TypedCustomPropertyBox<Value> {
        guard let box = boxes[Address(id: id, scope: scope, element: element)] else {
            let declared = boxes.keys.filter { $0.id == id }
            if declared.isEmpty { throw AudioUnitError(.invalidProperty, "\(unit) has no property \(id)") }
            if !declared.contains(where: { $0.scope == scope }) {
                throw AudioUnitError(.invalidScope, "\(unit): \(id) is not in the \(scope) scope")
            }
            throw AudioUnitError(.invalidElement, "\(unit): \(id) has no element \(element) in the \(scope) scope")
        }
        guard box.valueType == ObjectIdentifier(Value.self) else {
            throw AudioUnitError(.invalidPropertyValue, "\(unit): \(id) holds a \(box.typeName), not a \(Value.self)")
        }
        return unsafeDowncast(box, to: TypedCustomPropertyBox<Value>.self)
    }
}

/// A declared custom property: its value's type and whether it may be set from outside.
class CustomPropertyBox {
    let valueType: ObjectIdentifier
    let typeName: String
    let isWritable: Bool

    init(valueType: Any.Type, isWritable: Bool) {
        self.valueType = ObjectIdentifier(valueType)
        typeName = "\(valueType)"
        self.isWritable = isWritable
    }
}

/// A custom property's value, of the type it was declared with.
final class TypedCustomPropertyBox<Value>: CustomPropertyBox {
    var value: Value

    init(_ value: Value, isWritable: Bool) {
        self.value = value
        super.init(valueType: Value.self, isWritable: isWritable)
    }
}

extension AudioUnit {
    /// Declares one of the unit's own properties (a custom ID, 64000 and up) at a scope and
    /// element: from then on it is read and set through ``value(of:scope:element:)`` and
    /// ``setValue(_:for:scope:element:)`` like a built-in property (setting it calls its
    /// listeners), and ``info(for:scope:element:)`` reports it. A read-only property
    /// (`isWritable: false`) changes only through ``updateProperty(_:to:scope:element:)``.
    /// Declaring again replaces the value.
    /// - Thread: [control] (a subclass calls it from its initializer).
    public func declareProperty<Value>(
        _ key: PropertyKey<Value>, scope: Scope = .global, element: Element = 0, initialValue: Value, isWritable: Bool = true
    ) {
        customProperties.declare(key.id, scope: scope, element: element, initialValue: initialValue, isWritable: isWritable)
    }

    /// Sets one of the unit's own properties from inside the unit, read-only or not, and
    /// calls its listeners.
    /// - Thread: [control]
    public func updateProperty<Value>(_ key: PropertyKey<Value>, to value: Value, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) {
        try customProperties.setValue(value, of: key.id, scope: scope, element: element, unit: name, fromUnit: true)
        announcePropertyChange(key.id, scope: scope, element: element)
    }
}
