import CLilv

/// The URI nodes the backend queries with, interned once per world (never per query).
/// - Thread: [control]; freed by the world before the world itself.
final class LV2Nodes: @unchecked Sendable {
    let audioPort, controlPort, cvPort, atomPort, inputPort, outputPort: LilvURINode
    let integer, toggled, enumeration, logarithmic, sampleRate, reportsLatency, notOnGUI: LilvURINode
    let connectionOptional, isSideChain, unit, group, supports, midiEvent, timePosition: LilvURINode
    let minimumSize, preset, rdfsLabel, doapName, foafName, maintainer, project: LilvURINode
    let minorVersion, microVersion, hardRTCapable, pluginProperty, hardRtCapableOld, lv2Name: LilvURINode
    let patchWritable, patchReadable, patchMessage, designation, rdfsRange, defaultValue: LilvURINode
    private var all: [OpaquePointer?] = []

    /// Interns every node in the `LilvWorld*` being made (before its lock exists).
    init(world: OpaquePointer) {
        var all: [OpaquePointer?] = []
        func uri(_ text: String) -> LilvURINode {
            let node = text.withCString { lilv_new_uri(world, $0) }
            all.append(node)
            return LilvURINode(raw: node)
        }
        audioPort = uri(LV2URI.coreAudioPort)
        controlPort = uri(LV2URI.coreControlPort)
        cvPort = uri(LV2URI.coreCVPort)
        atomPort = uri(LV2URI.atomAtomPort)
        inputPort = uri(LV2URI.coreInputPort)
        outputPort = uri(LV2URI.coreOutputPort)
        integer = uri(LV2URI.coreInteger)
        toggled = uri(LV2URI.coreToggled)
        enumeration = uri(LV2URI.coreEnumeration)
        logarithmic = uri(LV2URI.portPropsLogarithmic)
        sampleRate = uri(LV2URI.coreSampleRate)
        reportsLatency = uri(LV2URI.coreReportsLatency)
        notOnGUI = uri(LV2URI.portPropsNotOnGUI)
        connectionOptional = uri(LV2URI.coreConnectionOptional)
        isSideChain = uri(LV2URI.coreIsSideChain)
        unit = uri(LV2URI.unitsUnit)
        group = uri(LV2URI.portGroupsGroup)
        supports = uri(LV2URI.atomSupports)
        midiEvent = uri(LV2URI.midiMidiEvent)
        timePosition = uri(LV2URI.timePosition)
        minimumSize = uri(LV2URI.resizePortMinimumSize)
        preset = uri(LV2URI.presetsPreset)
        rdfsLabel = uri(LV2URI.rdfsLabel)
        doapName = uri(LV2URI.doapName)
        foafName = uri(LV2URI.foafName)
        maintainer = uri(LV2URI.doapMaintainer)
        project = uri(LV2URI.coreProject)
        minorVersion = uri(LV2URI.coreMinorVersion)
        microVersion = uri(LV2URI.coreMicroVersion)
        hardRTCapable = uri(LV2URI.coreHardRTCapable)
        pluginProperty = uri(LV2URI.corePluginProperty)
        hardRtCapableOld = uri(LV2URI.coreHardRtCapableOld)
        lv2Name = uri(LV2URI.lv2Core + "name")
        patchWritable = uri(LV2URI.patchWritable)
        patchReadable = uri(LV2URI.patchReadable)
        patchMessage = uri(LV2URI.patchMessage)
        designation = uri(LV2URI.coreDesignation)
        rdfsRange = uri(LV2URI.rdfsRange)
        defaultValue = uri(LV2URI.coreDefault)
        self.all = all
    }

    /// Frees every node; called by the world's deinit, before `lilv_world_free`.
    func free() {
        for node in all { lilv_node_free(node) }
        all = []
    }
}

/// A URI node the world interned (one of ``LV2Nodes``): what queries ask with. Borrowed;
/// it lives as long as its world.
/// - Thread: [control]
struct LilvURINode: @unchecked Sendable {
    /// The `LilvNode*` (nil when lilv could not make it); used only in this folder.
    let raw: OpaquePointer?
}
