/// What the plugin's data marks on the ports behind its parameters, for a host that must
/// tell a port meant for it from one the plugin keeps for itself.
extension LV2Unit {
    /// Whether the plugin marks the port of parameter `index` (its place in ``parameters``)
    /// as its own rather than the host's: `lv2:portProperty pprops:notOnGUI` (a value for
    /// the plugin and its own GUI, such as Guitarix's `SCHEDULE`), or the latency it reports
    /// (`lv2:portProperty lv2:reportsLatency`, `lv2:designation lv2:latency`).
    /// - Thread: [control]
    public func marksPortInternal(parameterAt index: Int) -> Bool {
        guard layout.parameterPorts.indices.contains(index) else { return false }
        let port = layout.ports[Int(layout.parameterPorts[index])]
        return port.isNotOnGUI || port.reportsLatency || port.designationURI == LV2URI.coreLatency
    }
}
