import AUCore

/// Format converters a graph inserts by itself where channel counts disagree.
extension AudioGraph {
    /// Puts a format converter (`aufc:conv:AUHs`, down-mixing at equal power: stereo to
    /// mono is the sum at -3 dB; mono up-mixed to every channel) on every connection whose
    /// source gives another channel count than its destination takes and cannot take, as
    /// formats propagate at ``initialize()``; returns the converters' nodes (named
    /// `Converter N→M ch`). Before ``initialize()``.
    /// - Thread: [control & uninitialized]
    @discardableResult
    public func insertFormatConverters() throws(AudioUnitError) -> [GraphNode] {
        try requireNotDisposed()
        try open()
        var inserted: [GraphNode] = []
        // Each pass fixes the first mismatch in render order; a graph has no more than it has connections.
        for _ in 0...model.connections.count {
            guard let connection = try FormatPropagation.propagate(model, order: GraphTopology.renderOrder(model), stoppingAtChannelMismatch: true)
            else { return inserted }
            let source = try unit(of: connection.source), destination = try unit(of: connection.destination)
            let sourceFormat = try source.busConfiguration(scope: .output, element: connection.sourceOutputBus).format
            let wanted = try destination.busConfiguration(scope: .input, element: connection.destinationInputBus).format
            let converter = FormatConverterUnit(description: ComponentDescription(type: ComponentType.formatConverter, subtype: "conv", manufacturer: BuiltinUnits.manufacturer))
            converter.downmixesAtEqualPower = true
            try converter.setValue(sourceFormat, for: .streamFormat, scope: .input)
            try converter.setValue(StreamFormat(sampleRate: sourceFormat.sampleRate, channels: wanted.channelsPerFrame, bitsPerChannel: wanted.bitsPerChannel, flags: wanted.formatFlags),
                                   for: .streamFormat, scope: .output)
            let node = try addNode(converter, name: "Converter \(sourceFormat.channelsPerFrame)→\(wanted.channelsPerFrame) ch")
            try disconnect(connection.destination, input: connection.destinationInputBus)
            try connect(connection.source, output: connection.sourceOutputBus, to: node)
            try connect(node, to: connection.destination, input: connection.destinationInputBus)
            inserted.append(node)
        }
        throw AudioUnitError(.formatNotSupported, "the graph's channel counts could not be reconciled with format converters")
    }
}
