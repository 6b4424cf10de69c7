import CAUSupport

/// LV2 URIs as Swift strings, from the C shim's re-exports of LV2's concatenated macros
/// (`LV2URI.uridMap` is `LV2_URID__map`). Interned into nodes and URIDs once per world.
/// - Thread: [any] (immutable).
enum LV2URI {
    static let uridMap = String(cString: AU_LV2_URID__map)
    static let uridUnmap = String(cString: AU_LV2_URID__unmap)
    static let optionsOptions = String(cString: AU_LV2_OPTIONS__options)
    static let bufSizeBoundedBlockLength = String(cString: AU_LV2_BUF_SIZE__boundedBlockLength)
    static let bufSizeFixedBlockLength = String(cString: AU_LV2_BUF_SIZE__fixedBlockLength)
    static let bufSizePowerOf2BlockLength = String(cString: AU_LV2_BUF_SIZE__powerOf2BlockLength)
    static let bufSizeCoarseBlockLength = String(cString: AU_LV2_BUF_SIZE__coarseBlockLength)
    static let bufSizeMinBlockLength = String(cString: AU_LV2_BUF_SIZE__minBlockLength)
    static let bufSizeMaxBlockLength = String(cString: AU_LV2_BUF_SIZE__maxBlockLength)
    static let bufSizeNominalBlockLength = String(cString: AU_LV2_BUF_SIZE__nominalBlockLength)
    static let bufSizeSequenceSize = String(cString: AU_LV2_BUF_SIZE__sequenceSize)
    static let parametersSampleRate = String(cString: AU_LV2_PARAMETERS__sampleRate)
    static let workerSchedule = String(cString: AU_LV2_WORKER__schedule)
    static let workerInterface = String(cString: AU_LV2_WORKER__interface)
    static let logLog = String(cString: AU_LV2_LOG__log)
    static let logError = String(cString: AU_LV2_LOG__Error)
    static let logWarning = String(cString: AU_LV2_LOG__Warning)
    static let logNote = String(cString: AU_LV2_LOG__Note)
    static let logTrace = String(cString: AU_LV2_LOG__Trace)
    static let stateInterface = String(cString: AU_LV2_STATE__interface)
    static let stateMakePath = String(cString: AU_LV2_STATE__makePath)
    static let stateMapPath = String(cString: AU_LV2_STATE__mapPath)
    static let stateFreePath = String(cString: AU_LV2_STATE__freePath)
    static let stateThreadSafeRestore = String(cString: AU_LV2_STATE__threadSafeRestore)
    static let stateLoadDefaultState = String(cString: AU_LV2_STATE__loadDefaultState)
    static let coreIsLive = String(cString: AU_LV2_CORE__isLive)
    static let coreHardRTCapable = String(cString: AU_LV2_CORE__hardRTCapable)
    static let coreInPlaceBroken = String(cString: AU_LV2_CORE__inPlaceBroken)
    static let coreAudioPort = String(cString: AU_LV2_CORE__AudioPort)
    static let coreControlPort = String(cString: AU_LV2_CORE__ControlPort)
    static let coreCVPort = String(cString: AU_LV2_CORE__CVPort)
    static let coreInputPort = String(cString: AU_LV2_CORE__InputPort)
    static let coreOutputPort = String(cString: AU_LV2_CORE__OutputPort)
    static let coreInteger = String(cString: AU_LV2_CORE__integer)
    static let coreToggled = String(cString: AU_LV2_CORE__toggled)
    static let coreEnumeration = String(cString: AU_LV2_CORE__enumeration)
    static let coreSampleRate = String(cString: AU_LV2_CORE__sampleRate)
    static let coreReportsLatency = String(cString: AU_LV2_CORE__reportsLatency)
    static let coreConnectionOptional = String(cString: AU_LV2_CORE__connectionOptional)
    static let coreIsSideChain = String(cString: AU_LV2_CORE__isSideChain)
    static let coreProject = String(cString: AU_LV2_CORE__project)
    static let coreInstrumentPlugin = String(cString: AU_LV2_CORE__InstrumentPlugin)
    static let coreGeneratorPlugin = String(cString: AU_LV2_CORE__GeneratorPlugin)
    static let coreOscillatorPlugin = String(cString: AU_LV2_CORE__OscillatorPlugin)
    static let coreConstantPlugin = String(cString: AU_LV2_CORE__ConstantPlugin)
    static let coreMixerPlugin = String(cString: AU_LV2_CORE__MixerPlugin)
    static let coreConverterPlugin = String(cString: AU_LV2_CORE__ConverterPlugin)
    static let coreMIDIPlugin = String(cString: AU_LV2_CORE__MIDIPlugin)
    static let coreAnalyserPlugin = String(cString: AU_LV2_CORE__AnalyserPlugin)
    static let coreSpatialPlugin = String(cString: AU_LV2_CORE__SpatialPlugin)
    static let coreMinorVersion = String(cString: AU_LV2_CORE__minorVersion)
    static let coreMicroVersion = String(cString: AU_LV2_CORE__microVersion)
    static let atomAtomPort = String(cString: AU_LV2_ATOM__AtomPort)
    static let atomSequence = String(cString: AU_LV2_ATOM__Sequence)
    static let atomChunk = String(cString: AU_LV2_ATOM__Chunk)
    static let atomFloat = String(cString: AU_LV2_ATOM__Float)
    static let atomDouble = String(cString: AU_LV2_ATOM__Double)
    static let atomInt = String(cString: AU_LV2_ATOM__Int)
    static let atomLong = String(cString: AU_LV2_ATOM__Long)
    static let atomBool = String(cString: AU_LV2_ATOM__Bool)
    static let atomObject = String(cString: AU_LV2_ATOM__Object)
    static let atomPath = String(cString: AU_LV2_ATOM__Path)
    static let atomURID = String(cString: AU_LV2_ATOM__URID)
    static let atomFrameTime = String(cString: AU_LV2_ATOM__frameTime)
    static let atomBufferType = String(cString: AU_LV2_ATOM__bufferType)
    static let atomSupports = String(cString: AU_LV2_ATOM__supports)
    static let midiMidiEvent = String(cString: AU_LV2_MIDI__MidiEvent)
    static let timePosition = String(cString: AU_LV2_TIME__Position)
    static let timeFrame = String(cString: AU_LV2_TIME__frame)
    static let timeSpeed = String(cString: AU_LV2_TIME__speed)
    static let timeBar = String(cString: AU_LV2_TIME__bar)
    static let timeBarBeat = String(cString: AU_LV2_TIME__barBeat)
    static let timeBeatUnit = String(cString: AU_LV2_TIME__beatUnit)
    static let timeBeatsPerBar = String(cString: AU_LV2_TIME__beatsPerBar)
    static let timeBeatsPerMinute = String(cString: AU_LV2_TIME__beatsPerMinute)
    static let portPropsLogarithmic = String(cString: AU_LV2_PORT_PROPS__logarithmic)
    static let portPropsNotOnGUI = String(cString: AU_LV2_PORT_PROPS__notOnGUI)
    static let portGroupsGroup = String(cString: AU_LV2_PORT_GROUPS__group)
    static let presetsPreset = String(cString: AU_LV2_PRESETS__Preset)
    static let resizePortMinimumSize = String(cString: AU_LV2_RESIZE_PORT__minimumSize)
    static let unitsUnit = String(cString: AU_LV2_UNITS__unit)
    static let unitsDb = String(cString: AU_LV2_UNITS__db)
    static let unitsHz = String(cString: AU_LV2_UNITS__hz)
    static let unitsKhz = String(cString: AU_LV2_UNITS__khz)
    static let unitsMs = String(cString: AU_LV2_UNITS__ms)
    static let unitsS = String(cString: AU_LV2_UNITS__s)
    static let unitsPc = String(cString: AU_LV2_UNITS__pc)
    static let unitsCent = String(cString: AU_LV2_UNITS__cent)
    static let unitsSemitone12TET = String(cString: AU_LV2_UNITS__semitone12TET)
    static let unitsBpm = String(cString: AU_LV2_UNITS__bpm)
    static let unitsBeat = String(cString: AU_LV2_UNITS__beat)
    static let unitsOct = String(cString: AU_LV2_UNITS__oct)
    static let unitsMidiNote = String(cString: AU_LV2_UNITS__midiNote)
    static let unitsDegree = String(cString: AU_LV2_UNITS__degree)
    static let unitsFrame = String(cString: AU_LV2_UNITS__frame)
    static let unitsCoef = String(cString: AU_LV2_UNITS__coef)
}

extension LV2URI {
    // Vocabularies outside LV2's headers (plain literals, nothing to concatenate).
    static let rdfsLabel = "http://www.w3.org/2000/01/rdf-schema#label"
    static let doapName = "http://usefulinc.com/ns/doap#name"
    static let doapMaintainer = "http://usefulinc.com/ns/doap#maintainer"
    static let foafName = "http://xmlns.com/foaf/0.1/name"
    static let lv2Core = "http://lv2plug.in/ns/lv2core#"
    static let corePlugin = lv2Core + "Plugin"
    /// `lv2:pluginProperty`: older bundles (swh) say `lv2:hardRtCapable` this way.
    static let corePluginProperty = lv2Core + "pluginProperty"
    static let coreHardRtCapableOld = lv2Core + "hardRtCapable"
    static let coreDesignation = lv2Core + "designation"
    static let coreControl = lv2Core + "control"
    static let coreLatency = lv2Core + "latency"
    static let coreDefault = lv2Core + "default"
    static let rdfsRange = "http://www.w3.org/2000/01/rdf-schema#range"
    static let atomString = "http://lv2plug.in/ns/ext/atom#String"
    // The patch extension (the C shim re-exports none of its macros).
    static let patch = "http://lv2plug.in/ns/ext/patch#"
    static let patchWritable = patch + "writable"
    static let patchReadable = patch + "readable"
    static let patchMessage = patch + "Message"
    static let patchSet = patch + "Set"
    static let patchPut = patch + "Put"
    static let patchGet = patch + "Get"
    static let patchProperty = patch + "property"
    static let patchValue = patch + "value"
    static let patchBody = patch + "body"
}
