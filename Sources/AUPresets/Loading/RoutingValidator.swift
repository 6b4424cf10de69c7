import AUCore

/// Checks a preset's `chain` or `connections`, and its `midi` list, against the nodes'
/// units: every end names a node (or `input` / `output` on the right side), every bus
/// exists — growing a unit's bus count when the unit allows it —, each input bus is fed
/// once, MIDI goes from a unit that sends it to one that takes it, there is no cycle
/// (through audio and MIDI), and every node is connected. In a `chain`, a node that sends
/// MIDI feeds the next node when that one takes MIDI. Produces the connections in terms of
/// node indexes.
/// - Thread: [control]
struct RoutingValidator {
    /// A node as the routing sees it: its id and, when it could be made, its instance.
    struct Node {
        var id: String
        var unit: AudioUnit?
    }

    let nodes: [Node]
    let hasAllNodeIDs: Bool
    let graphInputBuses: Int
    let graphOutputBuses: Int
    private var indexByID: [String: Int] = [:]
    /// Bus counts changed on instances, by node index.
    private(set) var elementCounts: [Int: [Scope: Int]] = [:]

    init(nodes: [Node], hasAllNodeIDs: Bool, graphInputBuses: Int, graphOutputBuses: Int) {
        self.nodes = nodes
        self.hasAllNodeIDs = hasAllNodeIDs
        self.graphInputBuses = graphInputBuses
        self.graphOutputBuses = graphOutputBuses
        for (index, node) in nodes.enumerated() where indexByID[node.id] == nil { indexByID[node.id] = index }
    }

    /// A connection on its way through the checks, with where each part was written.
    private struct Edge {
        var source: LoadedEndpoint
        var destination: LoadedEndpoint
        var path: JSONPath
        var sourcePath: JSONPath
        var destinationPath: JSONPath
        /// A MIDI connection (`input` and `output` are then the graph's MIDI ends).
        var midi: LoadedMIDIConnection.Channels?
    }

    mutating func validate(
        _ routing: PresetRouting, paths: [JSONPath], isComplete: Bool, midi: [PresetMIDIConnection], midiPaths: [JSONPath],
        problems: inout ProblemCollector
    ) -> (audio: [LoadedConnection], midi: [LoadedMIDIConnection]) {
        let countBefore = problems.problems.count
        var edges: [Edge]
        let routingPath: JSONPath
        switch routing {
        case .chain(let ids):
            routingPath = JSONPath.root.key("chain")
            edges = chainEdges(ids, paths: paths, problems: &problems)
        case .connections(let connections):
            routingPath = JSONPath.root.key("connections")
            edges = connectionEdges(connections, paths: paths, problems: &problems)
        }
        edges += midiEdges(midi, paths: midiPaths, implied: edges.filter { $0.midi != nil }, problems: &problems)
        let audio = checkSingleFeed(checkBuses(edges.filter { $0.midi == nil }, problems: &problems), problems: &problems)
        edges = checkCycles(audio + edges.filter { $0.midi != nil }, problems: &problems)
        if isComplete && hasAllNodeIDs && problems.problems.count == countBefore {
            checkConnected(edges, routingPath: routingPath, problems: &problems)
        }
        return (
            edges.filter { $0.midi == nil }.map { LoadedConnection(source: $0.source, destination: $0.destination) },
            edges.compactMap { edge in edge.midi.map { LoadedMIDIConnection(source: edge.source, destination: edge.destination, channels: $0) } })
    }

    private func name(_ index: Int) -> String { nodes[index].unit.map { "'\($0.name)'" } ?? "node '\(nodes[index].id)'" }

    private func unknownNodeMessage(_ id: String) -> String {
        let ids = nodes.map(\.id).filter { !$0.isEmpty }
        return "unknown node \(quoted(id)); expected input, output or a node id" + (ids.isEmpty ? " (the file has no nodes)" : ": \(listing(ids))")
    }

    // MARK: - Building edges

    private func chainEdges(_ ids: [String], paths: [JSONPath], problems: inout ProblemCollector) -> [Edge] {
        var items: [(index: Int, path: JSONPath)] = []
        var seenAt: [Int: JSONPath] = [:]
        for (offset, id) in ids.enumerated() {
            let path = paths[offset]
            if id == PresetEndpoint.inputName || id == PresetEndpoint.outputName {
                problems.add(.badConnection, path, "chain lists node ids only; expected a node id, found \(quoted(id)) (input and output are the chain's implied ends)")
                continue
            }
            guard let index = indexByID[id] else {
                if hasAllNodeIDs { problems.add(.badConnection, path, unknownNodeMessage(id)) }
                continue
            }
            if let earlier = seenAt[index] {
                problems.add(.badConnection, path, "node '\(id)' is already in the chain at \(earlier); expected each node once")
                continue
            }
            seenAt[index] = path
            items.append((index, path))
        }
        var edges: [Edge] = []
        // A graph without input buses (a synth patch run live) feeds nothing from input.
        var previous: LoadedEndpoint? = graphInputBuses > 0 ? .graphInput(bus: 0) : nil
        var previousID = PresetEndpoint.inputName
        var midiSource: Int?
        for (offset, item) in items.enumerated() {
            let unit = nodes[item.index].unit
            let inputs = unit?.elementCount(.input) ?? 1
            let fedByMIDI = midiSource != nil && unit?.acceptsMIDIInput == true
            if let midiSource, fedByMIDI {
                edges.append(Edge(
                    source: .node(midiSource, bus: 0), destination: .node(item.index, bus: 0), path: item.path, sourcePath: item.path,
                    destinationPath: item.path, midi: .all))
            }
            if let source = previous {
                if inputs > 0 {
                    edges.append(Edge(source: source, destination: .node(item.index, bus: 0), path: item.path, sourcePath: item.path, destinationPath: item.path))
                } else if offset > 0 && !fedByMIDI {
                    problems.add(.badConnection, item.path,
                                 "\(name(item.index)) has no input bus, so it cannot follow '\(previousID)'; expected a unit with an input here (a generator can only start a chain)")
                }
            }
            let sendsMIDI = unit?.producesMIDIOutput == true
            if let unit, unit.elementCount(.output) == 0 {
                if !sendsMIDI { problems.add(.badConnection, item.path, "\(name(item.index)) has no audio output and sends no MIDI: nothing to render; expected a unit with an audio or MIDI output here") }
                previous = nil
            } else {
                previous = .node(item.index, bus: 0)
            }
            midiSource = sendsMIDI ? item.index : nil
            previousID = nodes[item.index].id
        }
        // A chain that ends in a node that sends MIDI ends at the graph's MIDI output.
        if let midiSource, let path = items.last?.path {
            edges.append(Edge(source: .node(midiSource, bus: 0), destination: .graphOutput(bus: 0), path: path, sourcePath: path, destinationPath: path, midi: .all))
        }
        if let source = previous {
            let path = items.last?.path ?? JSONPath.root.key("chain")
            edges.append(Edge(source: source, destination: .graphOutput(bus: 0), path: path, sourcePath: path, destinationPath: path))
        }
        return edges
    }

    private func connectionEdges(_ connections: [PresetConnection], paths: [JSONPath], problems: inout ProblemCollector) -> [Edge] {
        var edges: [Edge] = []
        for (offset, connection) in connections.enumerated() {
            let path = paths[offset]
            let source = endpoint(connection.source, path.index(0), asSource: true, problems: &problems)
            let destination = endpoint(connection.destination, path.index(1), asSource: false, problems: &problems)
            if let source, let destination {
                edges.append(Edge(source: source, destination: destination, path: path, sourcePath: path.index(0), destinationPath: path.index(1)))
            }
        }
        return edges
    }

    private func endpoint(_ end: PresetEndpoint, _ path: JSONPath, asSource: Bool, problems: inout ProblemCollector) -> LoadedEndpoint? {
        guard PresetEndpoint.busNumbers.contains(end.bus) else {
            let found = end.bus == .max ? "\(Int.max) or more" : "\(end.bus)"
            problems.add(.badConnection, path, "expected a bus number in \(PresetEndpoint.busNumbers), found \(found)")
            return nil
        }
        switch end.node {
        case PresetEndpoint.inputName:
            guard asSource else {
                problems.add(.badConnection, path, "input is where audio enters the graph; expected a node or output as the destination, found \(quoted(end.description))")
                return nil
            }
            guard end.bus < graphInputBuses else {
                problems.add(.badConnection, path, "expected an input bus of the graph in 0...\(graphInputBuses - 1), found \(end.bus)")
                return nil
            }
            return .graphInput(bus: end.bus)
        case PresetEndpoint.outputName:
            guard !asSource else {
                problems.add(.badConnection, path, "output is where audio leaves the graph; expected a node or input as the source, found \(quoted(end.description))")
                return nil
            }
            guard end.bus < graphOutputBuses else {
                problems.add(.badConnection, path, "expected an output bus of the graph in 0...\(graphOutputBuses - 1), found \(end.bus)")
                return nil
            }
            return .graphOutput(bus: end.bus)
        default:
            guard let index = indexByID[end.node] else {
                if hasAllNodeIDs { problems.add(.badConnection, path, unknownNodeMessage(end.node)) }
                return nil
            }
            return .node(index, bus: end.bus)
        }
    }

    /// The `midi` list's connections: ends that exist, a source that sends MIDI and a
    /// destination that takes it, each pair once (a `chain` may already imply it).
    private func midiEdges(_ list: [PresetMIDIConnection], paths: [JSONPath], implied: [Edge], problems: inout ProblemCollector) -> [Edge] {
        var edges: [Edge] = []
        var seen = Set(implied.map { "\(describe($0.source)) \(describe($0.destination))" })
        for (connection, path) in zip(list, paths) {
            let source = midiEnd(connection.from, path.key("from"), asSource: true, problems: &problems)
            let destination = midiEnd(connection.to, path.key("to"), asSource: false, problems: &problems)
            guard let source, let destination, let bits = connection.channelBits else { continue }
            guard source != destination else {
                problems.add(.cycle, path, "node \(quoted(connection.from)) cannot send MIDI to itself; expected MIDI to flow one way, without cycles")
                continue
            }
            guard seen.insert("\(describe(source)) \(describe(destination))").inserted else {
                problems.add(.badConnection, path, "\(quoted(connection.from)) already sends MIDI to \(quoted(connection.to)); expected each MIDI connection once")
                continue
            }
            edges.append(Edge(
                source: source, destination: destination, path: path, sourcePath: path.key("from"), destinationPath: path.key("to"),
                midi: LoadedMIDIConnection.Channels(accepted: bits, target: connection.channel)))
        }
        return edges
    }

    /// The `tracks` object's destinations: each a node that takes MIDI, or `output`.
    func trackDestinations(_ tracks: [Int: String], problems: inout ProblemCollector) -> [Int: LoadedEndpoint] {
        var destinations: [Int: LoadedEndpoint] = [:]
        for (track, id) in tracks.sorted(by: { $0.key < $1.key }) {
            if let end = midiEnd(id, JSONPath.root.key("tracks").key(String(track)), asSource: false, problems: &problems) { destinations[track] = end }
        }
        return destinations
    }

    /// One end of a MIDI connection: `input` as a source, `output` as a destination, or a
    /// node that sends MIDI (a source) or takes it (a destination).
    private func midiEnd(_ id: String, _ path: JSONPath, asSource sends: Bool, problems: inout ProblemCollector) -> LoadedEndpoint? {
        switch (id, sends) {
        case (PresetEndpoint.inputName, true): return .graphInput(bus: 0)
        case (PresetEndpoint.outputName, false): return .graphOutput(bus: 0)
        case (PresetEndpoint.inputName, false), (PresetEndpoint.outputName, true):
            let role = sends ? "a node or input as the source" : "a node or output as the destination"
            problems.add(.badConnection, path, "\(id) is where MIDI \(id == PresetEndpoint.inputName ? "enters" : "leaves") the graph; expected \(role)")
            return nil
        default: break
        }
        guard let index = indexByID[id] else {
            if hasAllNodeIDs { problems.add(.badConnection, path, unknownNodeMessage(id)) }
            return nil
        }
        if let unit = nodes[index].unit {
            if sends && !unit.producesMIDIOutput {
                problems.add(.badConnection, path, "\(name(index)) sends no MIDI; expected a unit with a MIDI output (a MIDI processor, aumi) or input")
                return nil
            }
            if !sends && !unit.acceptsMIDIInput {
                problems.add(.badConnection, path, "\(name(index)) takes no MIDI; expected a unit with a MIDI input (an instrument, aumu, or a MIDI processor, aumi) or output")
                return nil
            }
        }
        return .node(index, bus: 0)
    }

    // MARK: - Checks

    /// Grows bus counts where the unit allows it, then drops edges to buses that do not exist.
    private mutating func checkBuses(_ edges: [Edge], problems: inout ProblemCollector) -> [Edge] {
        var wanted: [Int: [Scope: Int]] = [:]
        for edge in edges {
            if case .node(let index, let bus) = edge.source { wanted[index, default: [:]][.output] = max(wanted[index]?[.output] ?? 0, bus + 1) }
            if case .node(let index, let bus) = edge.destination { wanted[index, default: [:]][.input] = max(wanted[index]?[.input] ?? 0, bus + 1) }
        }
        var growthFailures: [Int: [Scope: String]] = [:]
        for (index, scopes) in wanted.sorted(by: { $0.key < $1.key }) {
            guard let unit = nodes[index].unit else { continue }
            for (scope, count) in scopes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where count > unit.elementCount(scope) {
                guard (try? unit.info(for: .elementCount, scope: scope))?.isWritable == true else { continue }
                do {
                    try unit.setValue(count, for: .elementCount, scope: scope)
                    elementCounts[index, default: [:]][scope] = count
                } catch {
                    growthFailures[index, default: [:]][scope] = error.message
                }
            }
        }
        // A unit that could not grow is reported once, at the first end past its buses.
        var reportedGrowth: Set<[Int]> = []
        return edges.filter { edge in
            var isValid = true
            for (end, scope, path) in [(edge.source, Scope.output, edge.sourcePath), (edge.destination, Scope.input, edge.destinationPath)] {
                guard case .node(let index, let bus) = end, let unit = nodes[index].unit else { continue }
                let count = unit.elementCount(scope)
                guard bus >= count else { continue }
                isValid = false
                let kind = scope == .output ? "output" : "input"
                if let failure = growthFailures[index]?[scope] {
                    let wantedCount = wanted[index]?[scope] ?? bus + 1
                    if reportedGrowth.insert([index, Int(scope.rawValue)]).inserted {
                        problems.add(.badConnection, path, "\(name(index)) could not get the \(wantedCount) \(kind) buses its connections name: \(failure)")
                    }
                } else if count == 0 {
                    problems.add(.badConnection, path, "\(name(index)) has no \(kind) bus; expected a unit with an \(kind), found \(quoted("\(nodes[index].id):\(bus)"))")
                } else {
                    problems.add(.badConnection, path, "expected an \(kind) bus of \(name(index)) in 0...\(count - 1), found \(bus) in \(quoted("\(nodes[index].id):\(bus)"))")
                }
            }
            return isValid
        }
    }

    private func describe(_ end: LoadedEndpoint) -> String {
        switch end {
        case .graphInput(let bus): "input:\(bus)"
        case .graphOutput(let bus): "output:\(bus)"
        case .node(let index, let bus): "\(nodes[index].id):\(bus)"
        }
    }

    /// One source per input bus (Core Audio's rule; a mixer unit sums several).
    private func checkSingleFeed(_ edges: [Edge], problems: inout ProblemCollector) -> [Edge] {
        var fedBy: [LoadedEndpoint: JSONPath] = [:]
        return edges.filter { edge in
            if let earlier = fedBy[edge.destination] {
                problems.add(.badConnection, edge.path,
                             "\(describe(edge.destination)) is already fed by \(earlier); expected one source per input bus (mix several with a mixer unit such as aumx:mcmx:AUHs)")
                return false
            }
            fedBy[edge.destination] = edge.path
            return true
        }
    }

    /// Reports each cycle once, at the connection that closes it, and drops that connection.
    private func checkCycles(_ edges: [Edge], problems: inout ProblemCollector) -> [Edge] {
        var outgoing: [Int: [(edge: Int, to: Int)]] = [:]
        for (offset, edge) in edges.enumerated() {
            if case .node(let from, _) = edge.source, case .node(let to, _) = edge.destination {
                outgoing[from, default: []].append((offset, to))
            }
        }
        enum Mark { case visiting, done }
        var marks: [Int: Mark] = [:]
        var stack: [Int] = []
        var closing: Set<Int> = []
        func visit(_ node: Int) {
            marks[node] = .visiting
            stack.append(node)
            for (edge, to) in outgoing[node] ?? [] {
                switch marks[to] {
                case .visiting?:
                    closing.insert(edge)
                    let loop = stack[stack.lastIndex(of: to)!...].map { nodes[$0].id } + [nodes[to].id]
                    problems.add(.cycle, edges[edge].path, "cycle \(loop.joined(separator: " -> ")); expected audio and MIDI to flow one way, without cycles")
                case .done?:
                    break
                case nil:
                    visit(to)
                }
            }
            stack.removeLast()
            marks[node] = .done
        }
        for node in nodes.indices where marks[node] == nil { visit(node) }
        return edges.enumerated().filter { !closing.contains($0.offset) }.map(\.element)
    }

    /// Every node feeds output (directly or not), and is fed when it has inputs; output is fed.
    private func checkConnected(_ edges: [Edge], routingPath: JSONPath, problems: inout ProblemCollector) {
        var reachesOutput: Set<Int> = []
        var frontier = edges.filter { if case .graphOutput = $0.destination { true } else { false } }
        if frontier.isEmpty {
            problems.add(.notConnected, routingPath, "nothing reaches output; expected a connection into output:0 (or MIDI into output)")
        }
        while let edge = frontier.popLast() {
            guard case .node(let index, _) = edge.source, reachesOutput.insert(index).inserted else { continue }
            frontier += edges.filter { if case .node(index, _) = $0.destination { true } else { false } }
        }
        var isFed: Set<Int> = []
        var isUsed: Set<Int> = []
        for edge in edges {
            if case .node(let index, _) = edge.destination { isFed.insert(index); isUsed.insert(index) }
            if case .node(let index, _) = edge.source { isUsed.insert(index) }
        }
        for (index, node) in nodes.enumerated() where indexByID[node.id] == index {
            let path = JSONPath.root.key("nodes").index(index)
            if !isUsed.contains(index) {
                let form = routingPath.description
                problems.add(.notConnected, path, "node '\(node.id)' is not connected; expected it in \(form)")
            } else if !reachesOutput.contains(index) {
                problems.add(.notConnected, path, "nothing from node '\(node.id)' reaches output; expected a path from it to output")
            } else if !isFed.contains(index), let unit = node.unit, unit.elementCount(.input) > 0, !unit.acceptsMIDIInput {
                problems.add(.notConnected, path, "nothing feeds node '\(node.id)'; expected a connection into one of its \(unit.elementCount(.input)) input bus(es)")
            }
        }
    }
}
