/// Properties (`AudioUnitGetProperty` / `AudioUnitSetProperty`): the typed entry points and
/// the built-in properties' reads and writes, which ``PropertyKey``'s keys call.
extension AudioUnit {
    /// Reads a property (`AudioUnitGetProperty`).
    /// - Thread: [control]
    public func value<Value>(of key: PropertyKey<Value>, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) -> Value {
        try requireNotDisposed()
        return try key.read(self, scope, element)
    }

    /// Sets a property (`AudioUnitSetProperty`) and calls its listeners once.
    /// - Thread: [control]
    public func setValue<Value>(_ value: Value, for key: PropertyKey<Value>, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) {
        RenderThread.assertNotCurrent("AudioUnit.setValue")
        try requireNotDisposed()
        let changes = try key.write(self, value, scope, element)
        for change in changes { listeners.propertyChanged(change) }
    }

    /// Size and writability of a property (`AudioUnitGetPropertyInfo`).
    /// - Thread: [control]
    public func info<Value>(for key: PropertyKey<Value>, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) -> PropertyInfo {
        try requireNotDisposed()
        let size = key.size(try key.read(self, scope, element))
        let isWritable = key.id.isCustom ? customProperties.isWritable(key.id) : isWritable(key.id, scope: scope)
        return PropertyInfo(size: size, isWritable: isWritable)
    }

    private func isWritable(_ id: PropertyID, scope: Scope) -> Bool {
        switch id {
        case .classInfo, .presentPreset, .bypassEffect, .maximumFramesPerSlice, .sampleRate, .streamFormat, .elementName:
            return true
        case .makeConnection, .setRenderCallback:
            return scope == .input
        case .elementCount:
            return canChangeElementCount(scope: scope)
        default:
            return false
        }
    }

    // MARK: - Checks

    func requireScope(_ id: PropertyID, _ scope: Scope, in allowed: Set<Scope>) throws(AudioUnitError) {
        guard allowed.contains(scope) else {
            let names = Scope.allCases.filter(allowed.contains).map(\.description).joined(separator: " or ")
            throw AudioUnitError(.invalidScope, "\(name): \(id) lives in the \(names) scope, not \(scope)")
        }
    }

    func requireGlobalElement(_ id: PropertyID, _ element: Element) throws(AudioUnitError) {
        guard element == 0 else {
            throw AudioUnitError(.invalidElement, "\(name): \(id) in the global scope has element 0 only, not \(element)")
        }
    }

    /// A property of the global scope, element 0.
    func requireGlobal(_ id: PropertyID, _ scope: Scope, _ element: Element) throws(AudioUnitError) {
        try requireScope(id, scope, in: [.global])
        try requireGlobalElement(id, element)
    }

    // MARK: - Formats and buses

    func sampleRate(scope: Scope, element: Element) throws(AudioUnitError) -> Double {
        if scope == .global {
            try requireGlobalElement(.sampleRate, element)
            return (elements.outputs.first ?? elements.inputs.first)?.format.sampleRate ?? unitSampleRate
        }
        return try busConfiguration(scope: scope, element: element).format.sampleRate
    }

    func setStreamFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) -> [PropertyChange] {
        try requireScope(.streamFormat, scope, in: [.input, .output])
        var bus = try busConfiguration(scope: scope, element: element)
        let change = PropertyChange(id: .streamFormat, scope: scope, element: element)
        if format == bus.format { return [change] }
        try requireUninitialized(.streamFormat)
        try validateFormat(format, scope: scope, element: element)
        bus.format = format
        elements.setBus(bus, scope: scope, element: element)
        return [change]
    }

    /// Sets the rate of one bus, or of every bus (global scope). Every bus is checked before
    /// any changes, so a refusal leaves the unit as it was.
    func setSampleRate(_ rate: Double, scope: Scope, element: Element) throws(AudioUnitError) -> [PropertyChange] {
        try StreamFormat.canonical(sampleRate: rate, channels: 1).validate()
        try requireUninitialized(.sampleRate)
        if scope == .global { try requireGlobalElement(.sampleRate, element) }
        var updates: [(scope: Scope, element: Element, configuration: BusConfiguration)] = []
        for busScope in [Scope.input, .output] where scope == .global || scope == busScope {
            let buses = scope == .global ? Array(0..<elementCount(busScope)) : [element]
            for bus in buses {
                var configuration = try busConfiguration(scope: busScope, element: bus)
                configuration.format.sampleRate = rate
                try validateFormat(configuration.format, scope: busScope, element: bus)
                updates.append((busScope, bus, configuration))
            }
        }
        var changes: [PropertyChange] = []
        if scope == .global {
            unitSampleRate = rate
            changes.append(PropertyChange(id: .sampleRate, scope: scope, element: element))
        }
        for update in updates {
            elements.setBus(update.configuration, scope: update.scope, element: update.element)
            changes.append(PropertyChange(id: .sampleRate, scope: update.scope, element: update.element))
            changes.append(PropertyChange(id: .streamFormat, scope: update.scope, element: update.element))
        }
        return changes
    }

    func setElementCount(_ count: Int, scope: Scope, element: Element) throws(AudioUnitError) -> [PropertyChange] {
        guard canChangeElementCount(scope: scope) else {
            throw AudioUnitError(.propertyNotWritable, "\(name): the number of \(scope) buses is fixed at \(elementCount(scope))")
        }
        try requireUninitialized(.elementCount)
        guard (0...1024).contains(count) else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): \(count) is not a bus count in 0...1024")
        }
        elements.setCount(count, scope: scope)
        return [PropertyChange(id: .elementCount, scope: scope, element: element)]
    }

    func setMaximumFramesPerSlice(_ frames: Int, scope: Scope) throws(AudioUnitError) -> [PropertyChange] {
        try requireScope(.maximumFramesPerSlice, scope, in: [.global])
        guard (1...65_536).contains(frames) else {
            throw AudioUnitError(.invalidPropertyValue, "\(name): MaximumFramesPerSlice \(frames) is not in 1...65536")
        }
        try requireUninitialized(.maximumFramesPerSlice)
        maximumFrames = frames
        return [PropertyChange(id: .maximumFramesPerSlice, scope: scope, element: 0)]
    }

    // MARK: - Input sources

    /// The input bus `element`'s source, after checking scope and element.
    private func inputSource(_ id: PropertyID, scope: Scope, element: Element) throws(AudioUnitError) -> InputSource {
        try requireScope(id, scope, in: [.input])
        _ = try busConfiguration(scope: .input, element: element)
        return elements.inputSources[element]
    }

    func connection(scope: Scope, element: Element) throws(AudioUnitError) -> UnitConnection {
        if case .connection(let connection) = try inputSource(.makeConnection, scope: scope, element: element) { return connection }
        return UnitConnection(sourceUnit: nil, sourceOutputBus: 0, destinationInputBus: element)
    }

    func renderCallback(scope: Scope, element: Element) throws(AudioUnitError) -> RenderCallback? {
        if case .callback(let box) = try inputSource(.setRenderCallback, scope: scope, element: element) { return box.callback }
        return nil
    }

    func setConnection(_ connection: UnitConnection, scope: Scope, element: Element) throws(AudioUnitError) -> [PropertyChange] {
        _ = try inputSource(.makeConnection, scope: scope, element: element)
        if let source = connection.sourceUnit {
            let sourceFormat = try source.busConfiguration(scope: .output, element: connection.sourceOutputBus).format
            let format = try busConfiguration(scope: .input, element: element).format
            guard sourceFormat.channelsPerFrame == format.channelsPerFrame, sourceFormat.sampleRate == format.sampleRate else {
                throw AudioUnitError(
                    .formatNotSupported,
                    "cannot connect \(source.name) output \(connection.sourceOutputBus) (\(sourceFormat)) to \(name) input \(element) (\(format)): a format converter is needed")
            }
            elements.inputSources[element] = .connection(connection)
        } else {
            elements.inputSources[element] = .none
        }
        return [PropertyChange(id: .makeConnection, scope: scope, element: element)]
    }

    func setRenderCallback(_ callback: RenderCallback?, scope: Scope, element: Element) throws(AudioUnitError) -> [PropertyChange] {
        _ = try inputSource(.setRenderCallback, scope: scope, element: element)
        elements.inputSources[element] = callback.map { .callback(RenderCallbackBox($0)) } ?? .none
        return [PropertyChange(id: .setRenderCallback, scope: scope, element: element)]
    }
}
