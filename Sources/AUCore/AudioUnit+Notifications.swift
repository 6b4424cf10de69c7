/// Listeners (`AudioUnitAddPropertyListener`, `AUListenerAddParameter`) and the delivery
/// to them of what the render thread changed.
extension AudioUnit {
    /// Calls `handler` once after every change of property `id` (in `scope` / `element`
    /// when given), whatever made it. Never on the render thread.
    /// - Thread: [control]
    @discardableResult
    public func addPropertyListener(_ id: PropertyID, scope: Scope? = nil, element: Element? = nil, _ handler: @escaping PropertyListener) -> ListenerToken {
        listeners.addProperty(id, scope: scope, element: element, handler)
    }

    /// Calls `handler` once after every parameter change, whatever made it. Never on the
    /// render thread: changes made there arrive through ``dispatchPendingNotifications()``.
    /// - Thread: [control]
    @discardableResult
    public func addParameterListener(_ handler: @escaping ParameterListener) -> ListenerToken {
        listeners.addParameter(handler)
    }

    /// Removes a listener; false when the token was not registered.
    /// - Thread: [control]
    @discardableResult
    public func removeListener(_ token: ListenerToken) -> Bool { listeners.remove(token) }

    /// Adds a render notification (`AudioUnitAddRenderNotify`): `callback` runs on the render
    /// thread before each render of the unit, with ``RenderFlags/preRender``, and after it,
    /// with ``RenderFlags/postRender`` (and ``RenderFlags/postRenderError`` when it failed),
    /// given the render's timestamp, output bus and buffers: those of the pulled bus for
    /// ``render(flags:timestamp:outputBus:buffers:)``, output bus 0 when a graph or a driver
    /// pushes the cycle (once per call: a graph cuts a cycle longer than its slice into
    /// several). At most 4 per unit (CannotDoInCurrentContext beyond). The callback keeps the
    /// render thread's rules: no allocation, no lock, no blocking call. A notification that
    /// `readsOnly` (a meter: it never changes the buffers) lets the unit render in a
    /// ``UnitRun``, which calls it once the run has rendered the unit, pre and post in turn
    /// with the unit's output; any other keeps the unit out of runs.
    /// - Thread: [control]
    @discardableResult
    public func addRenderNotify(_ callback: RenderCallback, readsOnly: Bool = false) throws(AudioUnitError) -> RenderNotifyToken {
        try renderNotifies.add(callback, readsOnly: readsOnly, published: publishRenderNotifies)
    }

    /// Removes a render notification (`AudioUnitRemoveRenderNotify`); false when the token
    /// was not added. When it returns, the render thread no longer calls it.
    /// - Thread: [control]
    @discardableResult
    public func removeRenderNotify(_ token: RenderNotifyToken) -> Bool {
        renderNotifies.remove(token, published: publishRenderNotifies)
    }

    private func publishRenderNotifies(any: Bool, anyWrites: Bool) {
        hasRenderNotifies.store(any, ordering: .relaxed)
        hasWritingRenderNotifies.store(anyWrites, ordering: .relaxed)
    }

    /// Tells listeners about a change a subclass made to one of its own properties.
    /// - Thread: [control]
    public func announcePropertyChange(_ id: PropertyID, scope: Scope = .global, element: Element = 0) {
        listeners.propertyChanged(PropertyChange(id: id, scope: scope, element: element))
    }

    /// Delivers the changes the render thread made since the last call (output parameters,
    /// scheduled parameter events, render errors, latency) to the listeners, and returns
    /// how many were delivered. Hosts call it from a timer or after each offline block.
    /// - Thread: [control]
    @discardableResult
    public func dispatchPendingNotifications() -> Int {
        var delivered = 0
        while let note = notifications.pop() {
            delivered += 1
            if note.isParameter {
                let index = Int(note.identity)
                listeners.parameterChanged(parameters.infos[index].address, value: note.value)
            } else {
                listeners.propertyChanged(
                    PropertyChange(id: PropertyID(rawValue: note.identity), scope: Scope(rawValue: note.scope) ?? .global, element: Int(note.element)))
            }
        }
        for (slot, value) in changedOutputs() {
            delivered += 1
            listeners.parameterChanged(parameters.infos[slot].address, value: value)
        }
        return delivered
    }

    /// The output parameters whose values differ from what the listeners last heard, when
    /// the render thread published any since: a meter's listener hears its latest value
    /// once per dispatch, however many cycles changed it.
    /// - Thread: [control]
    private func changedOutputs() -> [(slot: Int, value: Float)] {
        let publications = outputPublications.load(ordering: .acquiring)
        return notifiedOutputs.withLock { notified in
            guard notified.publications != publications else { return [] }
            notified.publications = publications
            var changed: [(slot: Int, value: Float)] = []
            for (position, slot) in parameters.outputSlots.enumerated() {
                let value = parameters.value(at: slot)
                if value.bitPattern != notified.values[position] {
                    notified.values[position] = value.bitPattern
                    changed.append((slot, value))
                }
            }
            return changed
        }
    }

    /// Tells the parameter listeners every input parameter's value (a preset was loaded).
    func announceAllParameters() {
        for (index, info) in parameters.infos.enumerated() where !info.isOutput {
            listeners.parameterChanged(info.address, value: parameters.value(at: index))
        }
    }

    /// Tells listeners, through the notification ring, that a property changed on the render thread.
    /// - Thread: [render]
    public func notifyPropertyChangeFromRender(_ id: PropertyID, scope: Scope = .global, element: Element = 0) {
        notifications.push(UnitNotification(identity: id.rawValue, isParameter: false, scope: scope.rawValue, element: Int32(element), value: 0))
    }
}
