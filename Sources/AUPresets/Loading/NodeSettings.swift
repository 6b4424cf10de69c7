import AUCore
import Foundation

/// The checked settings of a node, in the order they are applied: bus counts, the saved
/// state, the factory preset, the property parameters, the parameters, bypass.
/// - Thread: [control]
public struct NodeSettings: Sendable {
    /// Bus counts changed so the connections fit (a mixer's inputs, a splitter's outputs).
    public var elementCounts: [Scope: Int] = [:]
    public var factoryPreset: UnitPreset?
    /// `ClassInfo` to restore, and the folder its relative file paths start from (the preset's).
    public var state: Data?
    public var stateFolder: URL?
    /// Property parameters (files, named values), then the overrides', checked against the unit.
    public var properties: [ResolvedProperty] = []
    /// The file's parameters, then the overrides, each checked against the unit.
    public var parameters: [ResolvedParameter] = []
    public var isBypassed = false

    /// - Thread: [control]
    public init() {}

    /// Applies the settings to an uninitialized unit of the same component.
    /// - Thread: [control]
    public func apply(to unit: AudioUnit) throws(AudioUnitError) {
        for scope in [Scope.input, .output] {
            if let count = elementCounts[scope] { try unit.setValue(count, for: .elementCount, scope: scope) }
        }
        unit.stateFolder = stateFolder
        if let state { try unit.setValue(state, for: .classInfo) }
        if let factoryPreset { try unit.setValue(factoryPreset, for: .presentPreset) }
        for property in properties { try property.apply(to: unit) }
        for parameter in parameters { try parameter.apply(to: unit) }
        if isBypassed { try unit.setValue(true, for: .bypassEffect) }
    }
}
