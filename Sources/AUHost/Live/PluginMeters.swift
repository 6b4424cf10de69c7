import AUCore
import AULV2

/// Which of a unit's output parameters are meters of the graph (`meters` lists them after
/// the live levels): those a plugin marks as a level for the host. LV2 has no "meter" port
/// property; what plugins mark is a level's unit (`units:unit units:db`: x42's and dpl's
/// level outputs) and, for ports that are theirs rather than the host's,
/// `lv2:portProperty pprops:notOnGUI` (Guitarix's `SCHEDULE`, x42 meters' UI ports) or a
/// latency report (`lv2:reportsLatency`, `lv2:designation lv2:latency`). So an output is a
/// meter when its unit is a level (decibels; for native units also Core Audio's meter and
/// linear-gain units) and its plugin does not mark its port as its own
/// (``LV2Unit/marksPortInternal(parameterAt:)``). A plugin's unmarked outputs (a level
/// without a unit, a tuner's note, a clip light) are not meters of the graph.
/// - Thread: [control]
public enum PluginMeters {
    /// The units that say an output is a level.
    static let levelUnits: [ParameterUnit] = [.decibels, .meters, .linearGain]

    /// Whether `unit`'s parameter at `index` is a meter of the graph.
    /// - Thread: [control]
    public static func isMeter(_ unit: AudioUnit, parameterAt index: Int) -> Bool {
        guard unit.parameters.infos.indices.contains(index) else { return false }
        let info = unit.parameters.infos[index]
        guard info.isOutput, levelUnits.contains(info.unit) else { return false }
        return (unit as? LV2Unit)?.marksPortInternal(parameterAt: index) != true
    }

    /// The indices of `unit`'s parameters that are meters of the graph, in order.
    /// - Thread: [control]
    public static func meterParameters(of unit: AudioUnit) -> [Int] {
        unit.parameters.infos.indices.filter { isMeter(unit, parameterAt: $0) }
    }
}
