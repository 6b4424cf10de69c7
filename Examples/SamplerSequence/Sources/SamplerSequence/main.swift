// Seed 002's Swift code, written for iOS against Apple's AudioToolbox: an AUGraph of an
// AUSampler into Remote I/O, a SoundFont preset loaded with kAUSamplerProperty_LoadInstrument,
// a MusicSequence tied to the graph, notes added with MusicTrackNewMIDINoteEvent and played
// with MusicPlayerStop / MusicPlayerSetTime(0) / MusicPlayerStart. The class is the seed's,
// unchanged but for soundbankURL (where it finds the sound font: AUHOST_SOUNDFONT_DIR or
// /usr/share/sounds/sf2 instead of the app bundle). What follows the class plays a short
// tune with it and is this example's own. AUHOST_DEVICE=file:out.wav renders it to a file.
import AudioToolbox
import Foundation

let soundFontName = ["FluidR3_GM"]

class MIDIPlayer {
    var musicSequence : MusicSequence?
    var musicPlayer   : MusicPlayer?
    var musicTrack    : MusicTrack?

    var processGraph  : AUGraph?
    var chordUnit     : AudioUnit?
    var ioUnit        : AudioUnit?
    var chordNode     = AUNode()
    var ioNode        = AUNode()

    init() {
        NewAUGraph(&processGraph)
        NewMusicPlayer(&musicPlayer)
        NewMusicSequence(&musicSequence)
        MusicSequenceNewTrack(musicSequence!, &musicTrack)
        
        MusicSequenceSetAUGraph(musicSequence!, processGraph)
        MusicPlayerSetSequence(musicPlayer!, musicSequence)
        
        setup()
        loadSF2Preset(unit: chordUnit!)
    }

    private func setup() {
        var cd:AudioComponentDescription = AudioComponentDescription(
            componentType: OSType(kAudioUnitType_MusicDevice),
            componentSubType: OSType(kAudioUnitSubType_Sampler),
            componentManufacturer: OSType(kAudioUnitManufacturer_Apple),
            componentFlags: 0,
            componentFlagsMask: 0)
        
        var ioUnitDescription:AudioComponentDescription = AudioComponentDescription(
            componentType: OSType(kAudioUnitType_Output),
            componentSubType: OSType(kAudioUnitSubType_RemoteIO),
            componentManufacturer: OSType(kAudioUnitManufacturer_Apple),
            componentFlags: 0,
            componentFlagsMask: 0)
        
        let ioUnitOutputElement:AudioUnitElement  = 0
        let chordOutputElement:AudioUnitElement = 0
        var outIsInitialized:DarwinBoolean = false
        var isRunning:DarwinBoolean = false
        
        if let graph = processGraph {
            AUGraphAddNode(graph, &cd, &chordNode)
            AUGraphAddNode(graph, &ioUnitDescription, &ioNode)
            
            AUGraphOpen(graph)
            AUGraphNodeInfo(graph, chordNode, nil, &chordUnit)
            AUGraphNodeInfo(graph, ioNode   , nil, &ioUnit)
            
            AUGraphConnectNodeInput(graph,
                chordNode, chordOutputElement, // srcnode, inSourceOutputNumber
                ioNode   , ioUnitOutputElement) // destnode, inDestInputNumber
            
            AUGraphIsInitialized(graph, &outIsInitialized)
            if outIsInitialized == false {
                AUGraphInitialize(graph)
            }
            AUGraphIsRunning(graph, &isRunning)
            if isRunning == false {
                AUGraphStart(graph)
            }
        }
    }

    /// Get Sound Font URL
    private func soundbankURL(idx:Int) -> URL {
        let sfname = soundFontName[idx]
        // Changed from the seed: the sound font is found in a folder, not the app bundle.
        let folder = ProcessInfo.processInfo.environment["AUHOST_SOUNDFONT_DIR"] ?? "/usr/share/sounds/sf2"
        let bankURL = URL(fileURLWithPath: folder).appendingPathComponent("\(sfname).sf2")
        guard FileManager.default.fileExists(atPath: bankURL.path) else {
            fatalError("Sound font file not found.")
        }
        return bankURL
    }
    
    /// Load Sound Font
    func loadSF2Preset(unit: AudioUnit, preset:UInt8 = 0, index: Int = 0)  {
        let bankURL = soundbankURL(idx:index)
        var instdata = AUSamplerInstrumentData(fileURL: Unmanaged.passUnretained(bankURL as CFURL),
                                               instrumentType: UInt8(kInstrumentType_DLSPreset),
                                               bankMSB: UInt8(kAUSampler_DefaultMelodicBankMSB),
                                               bankLSB: UInt8(kAUSampler_DefaultBankLSB),
                                               presetID: preset)
        
        
        AudioUnitSetProperty(
            unit,
            UInt32(kAUSamplerProperty_LoadInstrument),
            UInt32(kAudioUnitScope_Global),
            0,
            &instdata,
            UInt32(MemoryLayout<AUSamplerInstrumentData>.size))
    }

    /// Adds a note (the seed's MusicTrackNewMIDINoteEvent call).
    func add(note: Int, vel: Int, channel: UInt8, position: MusicTimeStamp, duration: Double, track: MusicTrack) {
        var mess = MIDINoteMessage(channel: channel,
                                   note: UInt8(note),
                                   velocity: UInt8(vel),
                                   releaseVelocity: 0,
                                   duration: Float32(duration))
        MusicTrackNewMIDINoteEvent(track, position, &mess)
    }

    /// Plays from the start (the seed's three calls).
    func play(player: MusicPlayer) {
        MusicPlayerStop(player)
        MusicPlayerSetTime(player, 0)
        MusicPlayerStart(player)
    }
}

// The tune: C4 E4 G4 C5 G4 E4, one a beat at the sequence's 120 BPM (half a second each).
let tune: [(note: Int, beat: MusicTimeStamp)] = [(60, 0), (64, 1), (67, 2), (72, 3), (67, 4), (64, 5)]
let midiPlayer = MIDIPlayer()
for step in tune {
    midiPlayer.add(note: step.note, vel: 100, channel: 0, position: step.beat, duration: 0.8, track: midiPlayer.musicTrack!)
}
midiPlayer.play(player: midiPlayer.musicPlayer!)
for step in tune { print("note \(step.note) at beat \(step.beat)") }
// The tune lasts three seconds; a second more lets the last note ring out.
Thread.sleep(forTimeInterval: 4)
MusicPlayerStop(midiPlayer.musicPlayer!)
AUGraphStop(midiPlayer.processGraph!)
DisposeMusicPlayer(midiPlayer.musicPlayer!)
DisposeMusicSequence(midiPlayer.musicSequence!)
DisposeAUGraph(midiPlayer.processGraph!)
