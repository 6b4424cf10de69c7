/// Parameters (`AudioUnitGetParameter` / `AudioUnitSetParameter` /
/// `AudioUnitScheduleParameters`): reads, immediate changes, events scheduled into the next
/// cycle for its ``ParameterScheduler``, and the render thread's own changes.
extension AudioUnit {
    /// The description of one parameter; the error names the address and lists none-such.
    /// - Thread: [any]
    public func parameterInfo(_ address: ParameterAddress) throws(AudioUnitError) -> ParameterInfo {
        guard let index = parameters.index(of: address) else {
            throw AudioUnitError(.invalidParameter, "\(name) has no parameter \(address)")
        }
        return parameters.infos[index]
    }

    /// The current value of a parameter (`AudioUnitGetParameter`).
    /// - Thread: [any]
    public func parameterValue(_ id: ParameterID, scope: Scope = .global, element: Element = 0) throws(AudioUnitError) -> Float {
        try requireNotDisposed()
        guard let index = parameters.index(of: ParameterAddress(id, scope: scope, element: element)) else {
            throw AudioUnitError(.invalidParameter, "\(name) has no parameter \(ParameterAddress(id, scope: scope, element: element))")
        }
        return parameters.value(at: index)
    }

    /// Sets a parameter (`AudioUnitSetParameter`): at once when `bufferOffset` is 0 or the
    /// unit is not rendering, else at that frame of the next cycle. Listeners are told once.
    /// - Thread: [control] (any thread but the render thread).
    public func setParameter(_ id: ParameterID, value: Float, scope: Scope = .global, element: Element = 0, bufferOffset: Int = 0) throws(AudioUnitError) {
        let address = ParameterAddress(id, scope: scope, element: element)
        if bufferOffset == 0 || state != .initialized {
            let index = try writableIndex(address, value)
            parameters.exchangeValue(value, at: index)
            parameterDidChange(index, value: value)
            listeners.parameterChanged(address, value: value)
        } else {
            try scheduleParameters([ScheduledParameterEvent(address, .immediate(offset: bufferOffset, value: value))])
        }
    }

    /// Schedules parameter events into the next cycle (`AudioUnitScheduleParameters`).
    /// Values are checked now; listeners are told when each event is applied.
    /// - Thread: [control] (any thread but the render thread).
    public func scheduleParameters(_ events: [ScheduledParameterEvent]) throws(AudioUnitError) {
        try requireNotDisposed()
        var prepared: [ParameterEvent] = []
        for event in events {
            switch event.kind {
            case .immediate(let offset, let value):
                let index = try writableIndex(event.address, value)
                guard offset >= 0, offset < maximumFrames else {
                    throw AudioUnitError(.invalidParameterValue, "\(name): buffer offset \(offset) is not in 0..<\(maximumFrames)")
                }
                prepared.append(ParameterEvent(index: Int32(index), offset: Int32(offset), duration: 0, startValue: .nan, value: value))
            case .ramped(let offset, let duration, let start, let end):
                let index = try writableIndex(event.address, end)
                if let start { try parameters.infos[index].validate(start) }
                guard offset >= 0, offset < maximumFrames, duration > 0, duration <= Int(Int32.max) else {
                    throw AudioUnitError(.invalidParameterValue, "\(name): a ramp needs an offset in 0..<\(maximumFrames) and a positive duration")
                }
                prepared.append(ParameterEvent(index: Int32(index), offset: Int32(offset), duration: Int32(duration), startValue: start ?? .nan, value: end))
            }
        }
        guard parameterEvents.count + prepared.count <= AudioUnit.eventCapacity else {
            throw AudioUnitError(.cannotDoInCurrentContext, "\(name): more than \(AudioUnit.eventCapacity) parameter events are waiting for the next cycle")
        }
        if state != .initialized {
            for event in prepared {
                parameters.exchangeValue(event.value, at: Int(event.index))
                parameterDidChange(Int(event.index), value: event.value)
                listeners.parameterChanged(parameters.infos[Int(event.index)].address, value: event.value)
            }
            return
        }
        for event in prepared where parameterEvents.push(event) { pendingEvents.wrappingAdd(1, ordering: .releasing) }
    }

    private func writableIndex(_ address: ParameterAddress, _ value: Float) throws(AudioUnitError) -> Int {
        try requireNotDisposed()
        guard let index = parameters.index(of: address) else {
            let known = parameters.infos.filter { !$0.isOutput }.map(\.identifier).joined(separator: ", ")
            throw AudioUnitError(.invalidParameter, "\(name) has no parameter \(address); its parameters are: \(known)")
        }
        try parameters.infos[index].validate(value)
        return index
    }

    /// Sets a parameter on the render thread: publishes a value the unit produced to an
    /// output parameter (a meter, a reported latency), or applies a change to an input
    /// parameter (a scheduled event, a ramp step, a graph's event for a bypassed node).
    /// Listeners hear of it through ``dispatchPendingNotifications()``, which gives them the
    /// latest value of each output that changed since the last dispatch and every input
    /// change. Returns the value it replaced.
    /// - Thread: [render] An unchanged value costs one relaxed load: the render thread is the
    ///   only writer of what it publishes, so it needs no atomic exchange.
    @discardableResult
    #if !DEBUG
    @_noLocks
    #endif
    public func setParameterFromRender(at index: Int, value: Float) -> Float {
        let parameters = unretainedParameters
        let old = parameters._withUnsafeGuaranteedRef { $0.value(at: index) }
        guard old != value && !(old.isNaN && value.isNaN) else { return old }
        parameters._withUnsafeGuaranteedRef { $0.storeValue(value, at: index) }
        if parameters._withUnsafeGuaranteedRef({ $0.isOutput[index] }) {
            // The render thread is the only writer: a load and a store, not a locked add.
            outputPublications.store(outputPublications.load(ordering: .relaxed) &+ 1, ordering: .releasing)
        } else {
            _ = unretainedNotifications._withUnsafeGuaranteedRef {
                $0.push(UnitNotification(identity: UInt32(index), isParameter: true, scope: 0, element: 0, value: value))
            }
        }
        return old
    }

    /// Schedules a change of parameter slot `index` at frame `offset` of the unit's next
    /// render call, from the render thread (a graph hands its events to the unit so, just
    /// before rendering it): at once, or a ramp over `rampFrames` from `rampStart` (NaN: from
    /// the value it has then). False when the queue is full: nothing was scheduled.
    /// - Thread: [render] No allocation, no lock.
    #if !DEBUG
    @_noLocks
    #endif
    public func scheduleParameterFromRender(at index: Int, value: Float, offset: Int, rampFrames: Int = 0, rampStart: Float = .nan) -> Bool {
        let event = ParameterEvent(index: Int32(index), offset: Int32(offset), duration: Int32(rampFrames), startValue: rampStart, value: value)
        guard unretainedRenderParameterEvents._withUnsafeGuaranteedRef({ $0.push(event) }) else {
            return false
        }
        pendingEvents.wrappingAdd(1, ordering: .releasing)
        return true
    }

    /// The slot of the parameter at `address`, on the render thread; nil when the unit has none.
    /// - Thread: [render] No allocation, no lock.
    public func parameterIndexFromRender(_ address: ParameterAddress) -> Int? {
        unretainedParameters._withUnsafeGuaranteedRef { $0.renderIndex(of: address) }
    }

    /// The current value of parameter slot `index`, on the render thread.
    /// - Thread: [render] One relaxed load.
    public func parameterValueFromRender(at index: Int) -> Float {
        unretainedParameters._withUnsafeGuaranteedRef { $0.value(at: index) }
    }

    /// Whether parameter slot `index` takes `value` (``ParameterTable/renderAccepts(_:at:)``).
    /// - Thread: [render] No allocation, no lock.
    public func parameterAcceptsFromRender(_ value: Float, at index: Int) -> Bool {
        unretainedParameters._withUnsafeGuaranteedRef { $0.renderAccepts(value, at: index) }
    }
}
