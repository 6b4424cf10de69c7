import Synchronization

/// Identifies a registered listener, to remove it later.
/// - Thread: [any]
public struct ListenerToken: Hashable, Sendable {
    let rawValue: Int
}

/// A property of one unit changed: which, in what scope and element.
/// - Thread: [any]
public struct PropertyChange: Sendable, Equatable {
    public var id: PropertyID
    public var scope: Scope
    public var element: Element
    /// - Thread: [any]
    public init(id: PropertyID, scope: Scope, element: Element) {
        self.id = id
        self.scope = scope
        self.element = element
    }
}

/// Called after a property changed. Runs on a control thread, never on the render thread.
/// - Thread: [control]
public typealias PropertyListener = @Sendable (PropertyChange) -> Void
/// Called after a parameter's value changed. Runs on a control thread, never on the render thread.
/// - Thread: [control]
public typealias ParameterListener = @Sendable (ParameterAddress, Float) -> Void

/// The listeners of one unit and the delivery of changes to them.
///
/// Changes made on a control thread are delivered at once on that thread; changes made on
/// the render thread arrive through a ring and are delivered by
/// ``AudioUnit/dispatchPendingNotifications()`` on a control thread.
/// - Thread: [control] Never called on the render thread (debug builds assert it).
final class ListenerCenter: Sendable {
    private struct Registered {
        var properties: [Int: (id: PropertyID, scope: Scope?, element: Element?, handler: PropertyListener)] = [:]
        var parameters: [Int: ParameterListener] = [:]
        var nextToken = 1
    }

    private let registered = Mutex(Registered())

    func addProperty(_ id: PropertyID, scope: Scope?, element: Element?, _ handler: @escaping PropertyListener) -> ListenerToken {
        registered.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.properties[token] = (id, scope, element, handler)
            return ListenerToken(rawValue: token)
        }
    }

    func addParameter(_ handler: @escaping ParameterListener) -> ListenerToken {
        registered.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.parameters[token] = handler
            return ListenerToken(rawValue: token)
        }
    }

    /// Removes a listener; true when it was registered.
    @discardableResult
    func remove(_ token: ListenerToken) -> Bool {
        registered.withLock { state in
            state.properties.removeValue(forKey: token.rawValue) != nil
                || state.parameters.removeValue(forKey: token.rawValue) != nil
        }
    }

    func removeAll() {
        registered.withLock { $0 = Registered() }
    }

    /// Calls each listener of `change` once, outside the lock, in registration order.
    func propertyChanged(_ change: PropertyChange) {
        RenderThread.assertNotCurrent("a property listener")
        let handlers = registered.withLock { state in
            state.properties.sorted { $0.key < $1.key }.compactMap { _, entry in
                entry.id == change.id && (entry.scope.map { $0 == change.scope } ?? true)
                    && (entry.element.map { $0 == change.element } ?? true) ? entry.handler : nil
            }
        }
        for handler in handlers { handler(change) }
    }

    /// Calls each parameter listener once, outside the lock.
    func parameterChanged(_ address: ParameterAddress, value: Float) {
        RenderThread.assertNotCurrent("a parameter listener")
        let handlers = registered.withLock { state in
            state.parameters.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in handlers { handler(address, value) }
    }
}
