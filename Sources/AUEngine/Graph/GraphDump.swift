import AUCore
import Foundation
import Synchronization

extension AudioGraph {
    /// A readable description of the graph, like Core Audio's `CAShow`: state, every node
    /// with its unit, formats, latency, bypass/fault marks and share of render time, every
    /// connection with its compensation delay, input callbacks, the graph's latency and the
    /// render plan's order and cost, and how many threads render it and why.
    /// - Thread: [control]
    public func dump() -> String {
        var lines: [String] = []
        let state = isRunning ? "running" : isInitialized ? "initialized" : isOpen ? "open" : "closed"
        lines.append("AudioGraph: \(model.order.count) node(s), \(model.connections.count) connection(s), \(state)\(hasPendingEdits && isInitialized ? ", edits pending update()" : "")")
        let totalNanoseconds = model.order.reduce(UInt64(0)) { $0 + (runtimes[$1]?.renderNanoseconds.load(ordering: .relaxed) ?? 0) }
        lines.append("  Member Nodes:")
        for node in model.order {
            guard let entry = model.nodes[node] else { continue }
            var marks: [String] = []
            if node == model.outputNode { marks.append("output") }
            if model.bypassed.contains(node) { marks.append("bypassed") }
            if isFaulted(node) { marks.append("MUTED: produced NaN/Inf") }
            if let status = runtimes[node]?.lastStatus.load(ordering: .relaxed), status != 0 { marks.append("last render error \(status)") }
            if let requirement = report.blockRequirement[node], requirement != .any { marks.append("blocks: \(requirement)") }
            lines.append("    node \(node): '\(entry.name)' \(entry.description)\(marks.isEmpty ? "" : " [\(marks.joined(separator: ", "))]")")
            if let unit = entry.unit {
                for (bus, format) in unit.formats(.input).enumerated() { lines.append("      input \(bus): \(format)") }
                for (bus, format) in unit.formats(.output).enumerated() { lines.append("      output \(bus): \(format)") }
                var timing = "      latency \(latencyFrames(of: node)) frame(s), unit \(unit.state.rawValue)"
                if totalNanoseconds > 0, let spent = runtimes[node]?.renderNanoseconds.load(ordering: .relaxed), node != model.outputNode {
                    timing += String(format: ", %.1f%% of render time", 100 * Double(spent) / Double(totalNanoseconds))
                }
                lines.append(timing)
            } else {
                lines.append("      (not instantiated: open the graph)")
            }
        }
        lines.append("  Connections:")
        if model.connections.isEmpty { lines.append("    (none)") }
        for connection in model.connections {
            let delay = compensationDelay(of: connection)
            lines.append("    \(model.label(connection.source)) output \(connection.sourceOutputBus) -> \(model.label(connection.destination)) input \(connection.destinationInputBus)\(delay > 0 ? "  (aligned by a \(delay)-frame delay)" : "")")
        }
        let midi = isInitialized ? report.midiConnections : model.midiConnections
        if !midi.isEmpty {
            lines.append("  MIDI connections:")
            for connection in midi {
                let implied = !model.midiConnections.contains(connection) ? "  (the MIDI input's default: a node that takes MIDI and has no source)" : ""
                let channels = connection.channels == .all ? "" : ", \(connection.channels)"
                lines.append("    \(PlanCompiler.describe(connection.source, in: model)) -> \(PlanCompiler.describe(connection.destination, in: model)) (MIDI\(channels))\(implied)")
            }
        }
        if !model.inputCallbacks.isEmpty {
            lines.append("  Input callbacks:")
            for endpoint in model.inputCallbacks.keys.sorted(by: { ($0.node, $0.bus) < ($1.node, $1.bus) }) {
                lines.append("    \(model.label(endpoint.node)) input \(endpoint.bus)")
            }
        }
        if isInitialized {
            let rate = outputFormat?.sampleRate ?? 48_000
            lines.append(String(format: "  Latency: %d frame(s) (%.3f ms)", latencyFrames, 1000 * Double(latencyFrames) / rate))
            let order = report.order.map { model.label($0) }.joined(separator: " -> ")
            lines.append("  Render plan: \(order.isEmpty ? "(empty)" : order), slices of at most \(maximumFramesPerSlice) frames")
            if let decision = report.parallel {
                lines.append("  Threads: \(decision.threads) (\(decision.reason))")
                if decision.branches.count > 1 {
                    for (index, branch) in decision.branches.enumerated() {
                        lines.append("    branch \(index + 1): \(branch.map { model.label($0) }.joined(separator: " -> "))")
                    }
                }
                for (index, stage) in decision.stages.enumerated() {
                    lines.append("    stage \(index + 1): \(stage.map { model.label($0) }.joined(separator: " -> "))")
                }
            }
            let cycles = renderer.cycles.load(ordering: .relaxed)
            let timed = renderer.timedCycles.load(ordering: .relaxed)
            let spent = renderer.renderNanoseconds.load(ordering: .relaxed)
            if timed > 0 {
                lines.append(String(
                    format: "  Rendered %llu cycle(s), %.2f us per cycle (%llu timed, one in %llu)", cycles,
                    Double(spent) / Double(timed) / 1000, timed, GraphRenderer.timingInterval))
            } else if cycles > 0 {
                lines.append(String(format: "  Rendered %llu cycle(s)", cycles))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz DOT: one box per node (name, description, latency), one edge per
    /// connection labelled with its buses and channel count (and compensation delay).
    /// Render with `dot -Tpng graph.dot -o graph.png`.
    /// - Thread: [control]
    public func dotGraph() -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var lines = ["digraph AudioGraph {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for node in model.order {
            guard let entry = model.nodes[node] else { continue }
            var label = "\(entry.name)\\n\(entry.description)"
            let latency = latencyFrames(of: node)
            if latency > 0 { label += "\\nlatency \(latency)" }
            var attributes = ["label=\(quoted(label).replacingOccurrences(of: "\\\\n", with: "\\n"))"]
            if node == model.outputNode { attributes.append("shape=doubleoctagon") }
            if model.bypassed.contains(node) { attributes.append("style=dashed") }
            if isFaulted(node) { attributes.append("color=red") }
            lines.append("  n\(node.rawValue) [\(attributes.joined(separator: ", "))];")
        }
        for connection in model.connections {
            var label = "\(connection.sourceOutputBus)→\(connection.destinationInputBus)"
            if let unit = model.nodes[connection.source]?.unit, connection.sourceOutputBus < unit.elementCount(.output) {
                label += " (\(unit.formats(.output)[connection.sourceOutputBus].channelsPerFrame) ch)"
            }
            let delay = compensationDelay(of: connection)
            if delay > 0 { label += "\\ndelay \(delay)" }
            lines.append("  n\(connection.source.rawValue) -> n\(connection.destination.rawValue) [label=\(quoted(label).replacingOccurrences(of: "\\\\n", with: "\\n"))];")
        }
        // MIDI edges are dashed; the graph's MIDI input and output are plain-text ends.
        let midi = isInitialized ? report.midiConnections : model.midiConnections
        func end(_ endpoint: MIDIEndpoint) -> String {
            switch endpoint {
            case .graphInput: "midi_in"
            case .graphOutput: "midi_out"
            case .node(let node): "n\(node.rawValue)"
            }
        }
        if midi.contains(where: { $0.source == .graphInput }) { lines.append("  midi_in [shape=plaintext, label=\"MIDI in\"];") }
        if midi.contains(where: { $0.destination == .graphOutput }) { lines.append("  midi_out [shape=plaintext, label=\"MIDI out\"];") }
        for connection in midi {
            let label = connection.channels == .all ? "MIDI" : "MIDI \(connection.channels)"
            lines.append("  \(end(connection.source)) -> \(end(connection.destination)) [style=dashed, color=blue, fontcolor=blue, label=\(quoted(label))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
