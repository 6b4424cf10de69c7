import Foundation
internal import AUCore

// kAudioUnitProperty_ClassInfo as Apple's hosts save and restore it: a CFDictionary (an
// NSDictionary here) with Apple's keys: "version" (0), "type", "subtype" and "manufacturer"
// (the component's description as numbers), "name" (the present preset's name) and "data"
// (the unit's whole state as AUHost saves it, as CFData). Setting it back restores that state
// when the description is the unit's (kAudioUnitErr_InvalidPropertyValue otherwise).

/// The description a ClassInfo names: Apple's, when the unit was made under it.
private func classDescription(_ handle: UnitHandle) -> ComponentDescription {
    handle.entry?.component.description ?? handle.unit.componentDescription
}

/// A new CFDictionary of the unit's state, which the caller releases.
func retainedClassInfo(_ handle: UnitHandle) throws(AudioUnitError) -> OpaquePointer {
    let description = classDescription(handle)
    let info: NSDictionary = [
        "version": NSNumber(value: 0),
        "type": NSNumber(value: description.type.rawValue),
        "subtype": NSNumber(value: description.subtype.rawValue),
        "manufacturer": NSNumber(value: description.manufacturer.rawValue),
        "name": NSString(string: (try? handle.unit.value(of: .presentPreset))?.name ?? ""),
        "data": NSData(data: try handle.unit.saveState()),
    ]
    return OpaquePointer(Unmanaged.passRetained(info).toOpaque())
}

/// Restores a ClassInfo dictionary (the pointer a program passes: a CFDictionaryRef).
func restoreClassInfo(_ handle: UnitHandle, _ reference: UnsafeRawPointer?) throws(AudioUnitError) {
    guard let reference, let info = cfObject(reference) as? NSDictionary else {
        throw AudioUnitError(.invalidPropertyValue, "ClassInfo is not a dictionary")
    }
    let description = classDescription(handle)
    func number(_ key: String) -> UInt32? { (info[key] as? NSNumber)?.uint32Value }
    guard number("type") == description.type.rawValue, number("subtype") == description.subtype.rawValue,
          number("manufacturer") == description.manufacturer.rawValue else {
        throw AudioUnitError(.invalidPropertyValue, "ClassInfo names another component than \(description)")
    }
    guard let data = info["data"] as? NSData else { throw AudioUnitError(.invalidPropertyValue, "ClassInfo has no data") }
    try handle.unit.restoreState(Data(referencing: data))
}
