import Foundation
internal import AUCore

// kAudioUnitProperty_FactoryPresets as Apple gives it: a CFArray whose values are pointers to
// AUPreset structures (number and CFString name), which the caller releases. The array is
// made with CFArrayCreate and no callbacks (libFoundation's CoreFoundation), its AUPresets
// kept by the unit's handle, which owns them as long as it lives, as an Apple unit keeps its
// preset list.

/// The presets' storage behind the arrays handed out: AUPresets whose names are retained.
final class FactoryPresetStorage {
    let presets: UnsafeMutablePointer<AUPreset>
    let count: Int

    init(_ list: [UnitPreset]) {
        count = list.count
        presets = .allocate(capacity: max(1, list.count))
        for (index, preset) in list.enumerated() {
            presets[index] = AUPreset(presetNumber: Int32(preset.number), presetName: retainedCFString(preset.name))
        }
    }

    deinit {
        for index in 0..<count { presets[index].presetName?.release() }
        presets.deallocate()
    }
}

extension UnitHandle {
    /// A new CFArray of the unit's factory presets (empty when it has none).
    func factoryPresetArray() -> OpaquePointer? {
        let storage = presetStorage ?? FactoryPresetStorage(unit.factoryPresets)
        presetStorage = storage
        var values: [UnsafeRawPointer?] = (0..<storage.count).map { UnsafeRawPointer(storage.presets + $0) }
        let array = values.withUnsafeMutableBufferPointer { CFArrayCreate(nil, $0.baseAddress, storage.count, nil) }
        return array.map { OpaquePointer($0.toOpaque()) }
    }
}
