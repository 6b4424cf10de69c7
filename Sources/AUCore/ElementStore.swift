/// The buses of a unit's input and output scopes (Core Audio's `AUScope` of `AUIOElement`s)
/// and where each input bus gets its audio.
/// - Thread: [control] `MakeConnection` and `SetRenderCallback` may change an input's source
///   while the unit renders: each change of ``inputSources`` is published to the render
///   thread as a new ``RenderSnapshot``, which ``AudioUnit/pullInput(_:flags:timestamp:into:)``
///   reads (the change takes effect at a render's next pull; the call returns once no
///   render reads the old sources).
struct ElementStore {
    var inputs: [BusConfiguration]
    var outputs: [BusConfiguration]
    var inputSources: [InputSource] {
        didSet {
            renderSources.publish(inputSources.map(\.renderSide))
            // The replaced sources live until no render reads them (the publish waited).
            withExtendedLifetime(oldValue) {}
        }
    }
    /// The render thread's unretained copy of ``inputSources``.
    private let renderSources: RenderSnapshot<RenderInputSource>

    init(inputs: [BusConfiguration], outputs: [BusConfiguration], renderSources: RenderSnapshot<RenderInputSource>) {
        self.inputs = inputs
        self.outputs = outputs
        self.renderSources = renderSources
        inputSources = Array(repeating: .none, count: inputs.count)
        renderSources.publish(inputSources.map(\.renderSide))
    }

    /// The buses of an input or output scope; nil for the global and group scopes.
    func buses(_ scope: Scope) -> [BusConfiguration]? {
        switch scope {
        case .input: inputs
        case .output: outputs
        case .global, .group: nil
        }
    }

    /// Replaces one bus of the input or output scope.
    mutating func setBus(_ bus: BusConfiguration, scope: Scope, element: Element) {
        if scope == .input { inputs[element] = bus } else { outputs[element] = bus }
    }

    /// Sets how many buses a scope has: new ones copy the last bus's format (stereo when
    /// there is none); new inputs are unconnected.
    mutating func setCount(_ count: Int, scope: Scope) {
        var buses = scope == .input ? inputs : outputs
        let template = buses.last ?? .canonical(channels: 2, name: "\(scope)")
        while buses.count < count { buses.append(BusConfiguration(format: template.format, name: "\(scope) \(buses.count)")) }
        buses.removeLast(buses.count - count)
        if scope == .input {
            inputs = buses
            inputSources = (0..<count).map { $0 < inputSources.count ? inputSources[$0] : .none }
        } else {
            outputs = buses
        }
    }

    /// Disconnects every input bus.
    mutating func disconnectInputs() {
        inputSources = inputSources.map { _ in .none }
    }
}

extension AudioUnit {
    /// How many buses a scope has (global: 1).
    /// - Thread: [control]
    public func elementCount(_ scope: Scope) -> Int {
        scope == .global ? 1 : elements.buses(scope)?.count ?? 0
    }

    /// The configuration of one bus; errors name the scope and element.
    /// - Thread: [control]
    public func busConfiguration(scope: Scope, element: Element) throws(AudioUnitError) -> BusConfiguration {
        guard let buses = elements.buses(scope) else {
            throw AudioUnitError(.invalidScope, "\(name): buses live in the input and output scopes, not \(scope)")
        }
        guard buses.indices.contains(element) else {
            throw AudioUnitError(.invalidElement, "\(name): \(scope) scope has \(buses.count) bus(es); there is no element \(element)")
        }
        return buses[element]
    }

    /// The formats of every bus in a scope.
    /// - Thread: [control]
    public func formats(_ scope: Scope) -> [StreamFormat] {
        (elements.buses(scope) ?? []).map(\.format)
    }
}
