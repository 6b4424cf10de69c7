import AUCore

/// What `AUGraphInitialize` does to formats: walks the render order and sets each connected
/// input's stream format to its source's output format, then a unit's output sample rate to
/// its input's (a format converter excepted), and checks every connection. Errors name the
/// nodes, the buses and both formats, and say that a format converter is needed.
/// - Thread: [control]
enum FormatPropagation {
    static let converterHint = "insert a format converter (aufc:conv:AUHs) between them"

    /// Sets and checks every format; with `stoppingAtChannelMismatch`, returns the first
    /// connection whose channel counts differ and whose destination does not take the
    /// source's count (where a converter belongs) instead of throwing for it.
    @discardableResult
    static func propagate(_ model: GraphModel, order: [GraphNode], stoppingAtChannelMismatch: Bool = false) throws(AudioUnitError) -> GraphConnection? {
        var sequence = order
        if let output = model.outputNode { sequence.append(output) }
        for node in sequence {
            let entry = try model.node(node)
            guard let unit = entry.unit else { throw AudioUnitError(.uninitialized, "\(model.label(node)) has no unit: open the graph first") }
            var connectedRates: [(bus: Element, rate: Double)] = []
            for bus in 0..<unit.elementCount(.input) {
                guard let connection = model.connection(into: GraphEndpoint(node, bus: bus)) else { continue }
                guard let source = model.nodes[connection.source]?.unit else { continue }
                let sourceFormat = try source.busConfiguration(scope: .output, element: connection.sourceOutputBus).format
                let format = try unit.busConfiguration(scope: .input, element: bus).format
                let what = "\(model.label(connection.source)) output \(connection.sourceOutputBus) (\(sourceFormat)) to \(model.label(node)) input \(bus) (\(format))"
                if sourceFormat != format {
                    if unit.state == .initialized {
                        throw AudioUnitError(.initialized, "cannot connect \(what): \(model.label(node)) is initialized and rendering; its formats cannot change while the graph runs")
                    }
                    do {
                        try unit.setValue(sourceFormat, for: .streamFormat, scope: .input, element: bus)
                    } catch {
                        if stoppingAtChannelMismatch, sourceFormat.channelsPerFrame != format.channelsPerFrame, sourceFormat.sampleRate == format.sampleRate {
                            return connection
                        }
                        let reason = sourceFormat.channelsPerFrame != format.channelsPerFrame
                            ? "channel counts differ (\(sourceFormat.channelsPerFrame) vs \(format.channelsPerFrame))"
                            : sourceFormat.sampleRate != format.sampleRate ? "sample rates differ (\(Int(sourceFormat.sampleRate)) vs \(Int(format.sampleRate)) Hz)" : "formats differ"
                        throw AudioUnitError(.formatNotSupported, "cannot connect \(what): \(reason) and the input does not accept the source's format (\(error.message)); \(converterHint)", underlying: error)
                    }
                }
                connectedRates.append((bus, sourceFormat.sampleRate))
            }
            if let first = connectedRates.first, let other = connectedRates.first(where: { $0.rate != first.rate }) {
                throw AudioUnitError(
                    .formatNotSupported,
                    "\(model.label(node)) input \(first.bus) is at \(Int(first.rate)) Hz but input \(other.bus) is at \(Int(other.rate)) Hz: sample rates must agree; \(converterHint)")
            }
            guard let rate = connectedRates.first?.rate, node != model.outputNode else { continue }
            let type = entry.description.type
            if unit.elementCount(.input) == 1, type != ComponentType.mixer, type != ComponentType.formatConverter, unit.state != .initialized {
                // An effect's outputs follow its input's channel count when the unit accepts it.
                let channels = try unit.busConfiguration(scope: .input, element: 0).format.channelsPerFrame
                for bus in 0..<unit.elementCount(.output) {
                    let format = try unit.busConfiguration(scope: .output, element: bus).format
                    guard format.channelsPerFrame != channels else { continue }
                    let following = StreamFormat(sampleRate: format.sampleRate, channels: channels, bitsPerChannel: format.bitsPerChannel, flags: format.formatFlags)
                    try? unit.setValue(following, for: .streamFormat, scope: .output, element: bus)
                }
            }
            // A converter with no audio output (audio in, MIDI out: an onset trigger) converts no rate.
            if entry.description.type == ComponentType.formatConverter, unit.elementCount(.output) > 0 {
                let outputRate = try unit.busConfiguration(scope: .output, element: 0).format.sampleRate
                if outputRate != rate {
                    throw AudioUnitError(
                        .formatNotSupported,
                        "\(model.label(node)) converts \(Int(rate)) Hz to \(Int(outputRate)) Hz: inside a graph every node renders the same frames per cycle, so sample-rate conversion happens at the graph's edge (the converter's convert API, or the file driver)")
                }
                continue
            }
            for (scope, count) in [(Scope.input, unit.elementCount(.input)), (.output, unit.elementCount(.output))] {
                for bus in 0..<count {
                    var format = try unit.busConfiguration(scope: scope, element: bus).format
                    guard format.sampleRate != rate else { continue }
                    let connected = scope == .input && model.connection(into: GraphEndpoint(node, bus: bus)) != nil
                    guard !connected else { continue }
                    if unit.state == .initialized {
                        throw AudioUnitError(.initialized, "\(model.label(node)) \(scope) \(bus) is at \(Int(format.sampleRate)) Hz but its input is at \(Int(rate)) Hz, and the unit is initialized; stop and uninitialize the graph to change it")
                    }
                    format.sampleRate = rate
                    do {
                        try unit.setValue(format, for: .streamFormat, scope: scope, element: bus)
                    } catch {
                        throw AudioUnitError(.formatNotSupported, "\(model.label(node)) \(scope) \(bus) cannot follow its input's sample rate of \(Int(rate)) Hz (\(error.message)); \(converterHint)", underlying: error)
                    }
                }
            }
        }
        return nil
    }
}
