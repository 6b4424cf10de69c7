import AudioToolbox
import Testing

/// AUGraph's interaction calls: a graph of a callback into a mixer's input 1, the mixer into
/// an iPod EQ into a GenericOutput lists its two connections (in the order made) and then the
/// callback, with Apple's node numbers, buses and the callback's function and refCon; per node
/// the EQ takes part in both connections, the mixer in one connection and the callback; a
/// disconnection, of a connection or of a callback's input, shows in the list.
@Suite struct GraphInteractionTests {
    @Test func theGraphListsItsConnectionsAndCallbacks() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        defer { DisposeAUGraph(graph!) }
        func add(_ type: OSType, _ subtype: OSType) -> AUNode {
            var description = AudioComponentDescription(componentType: type, componentSubType: subtype, componentManufacturer: kAudioUnitManufacturer_Apple,
                                                        componentFlags: 0, componentFlagsMask: 0)
            var node = AUNode()
            #expect(AUGraphAddNode(graph, &description, &node) == noErr)
            return node
        }
        let mixer = add(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        let eq = add(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ)
        let output = add(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        #expect(AUGraphOpen(graph) == noErr)
        #expect(AUGraphConnectNodeInput(graph, mixer, 0, eq, 0) == noErr)
        #expect(AUGraphConnectNodeInput(graph, eq, 0, output, 0) == noErr)
        let refCon = UnsafeMutableRawPointer(bitPattern: 0x1234)
        var callback = AURenderCallbackStruct(inputProc: GraphFunctionTests.constant, inputProcRefCon: refCon)
        #expect(AUGraphSetNodeInputCallback(graph, mixer, 1, &callback) == noErr)

        var count: UInt32 = 0
        #expect(AUGraphGetNumberOfInteractions(graph, &count) == noErr && count == 3)
        var interaction = AUNodeInteraction()
        #expect(AUGraphGetInteractionInfo(graph, 0, &interaction) == noErr)
        #expect(interaction.nodeInteractionType == kAUNodeInteraction_Connection)
        let first = interaction.nodeInteraction.connection
        #expect(first.sourceNode == mixer && first.sourceOutputNumber == 0 && first.destNode == eq && first.destInputNumber == 0)
        #expect(AUGraphGetInteractionInfo(graph, 1, &interaction) == noErr)
        #expect(interaction.nodeInteraction.connection.sourceNode == eq && interaction.nodeInteraction.connection.destNode == output)
        #expect(AUGraphGetInteractionInfo(graph, 2, &interaction) == noErr)
        #expect(interaction.nodeInteractionType == kAUNodeInteraction_InputCallback)
        let input = interaction.nodeInteraction.inputCallback
        #expect(input.destNode == mixer && input.destInputNumber == 1 && input.cback.inputProcRefCon == refCon)
        #expect(AUGraphGetInteractionInfo(graph, 3, &interaction) == kAUGraphErr_InvalidConnection)

        #expect(AUGraphCountNodeInteractions(graph, eq, &count) == noErr && count == 2)
        #expect(AUGraphCountNodeInteractions(graph, mixer, &count) == noErr && count == 2)
        var list = [AUNodeInteraction](repeating: AUNodeInteraction(), count: 4)
        var capacity: UInt32 = 1
        #expect(AUGraphGetNodeInteractions(graph, mixer, &capacity, &list) == noErr && capacity == 1, "no more than asked")
        capacity = 4
        #expect(AUGraphGetNodeInteractions(graph, mixer, &capacity, &list) == noErr && capacity == 2)
        #expect(list[0].nodeInteractionType == kAUNodeInteraction_Connection && list[1].nodeInteractionType == kAUNodeInteraction_InputCallback)

        // Disconnections: of a connection, and of the input the callback feeds.
        #expect(AUGraphDisconnectNodeInput(graph, output, 0) == noErr)
        #expect(AUGraphGetNumberOfInteractions(graph, &count) == noErr && count == 2, "mixer → EQ and the callback: \(count)")
        #expect(AUGraphDisconnectNodeInput(graph, mixer, 1) == noErr)
        #expect(AUGraphGetNumberOfInteractions(graph, &count) == noErr && count == 1, "mixer → EQ: \(count)")
        #expect(AUGraphCountNodeInteractions(graph, output, &count) == noErr && count == 0)
    }
}
