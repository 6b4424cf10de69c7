import Foundation

/// Pushed feedback on the control port (`subscribe meters|params|status|notices [RATE]`):
/// which client wants which topic how often, and the pushes. A push never waits for a
/// client (``ControlConnection/push(_:)``); a client that does not read loses lines, counted
/// in ``droppedLines``, and never slows the run or the other clients.
/// - Thread: [control] (any thread: one lock inside).
final class ControlSubscriptions: @unchecked Sendable {
    enum Topic: String, CaseIterable {
        case meters, params, status, notices
        /// Lines a second when the client names no rate (notices: as they happen).
        var defaultRate: Double { self == .status ? 1 : 10 }
    }

    /// The most lines a second a topic is pushed.
    static let maximumRate = 30.0

    private struct Subscription {
        let connection: ControlConnection
        var rates: [Topic: Double] = [:]
        var lastPush: [Topic: Double] = [:]
    }

    private let lock = NSLock()
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]
    private var dropped = 0

    /// The reply to a `subscribe`/`unsubscribe` line, or nil when the line is another command.
    func reply(to line: String, from connection: ControlConnection) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased(), verb == "subscribe" || verb == "unsubscribe" else { return nil }
        let topics = Topic.allCases.map(\.rawValue).joined(separator: "|")
        if verb == "unsubscribe" {
            guard words.count <= 2 else { return "error: usage: unsubscribe [\(topics)]" }
            let topic = words.count == 2 ? Topic(rawValue: words[1].lowercased()) : nil
            if words.count == 2, topic == nil { return "error: unknown topic '\(words[1])'; expected \(topics)" }
            lock.withLock {
                if let topic { subscriptions[ObjectIdentifier(connection)]?.rates[topic] = nil } else { subscriptions[ObjectIdentifier(connection)] = nil }
            }
            return "ok unsubscribed" + (topic.map { " \($0.rawValue)" } ?? "")
        }
        guard (2...3).contains(words.count), let topic = Topic(rawValue: words[1].lowercased()) else {
            return words.count < 2 ? "error: usage: subscribe \(topics) [RATE]" : "error: unknown topic '\(words[1])'; expected \(topics)"
        }
        var rate = topic.defaultRate
        if words.count == 3 {
            guard let given = Double(words[2]), given > 0, given <= Self.maximumRate else {
                return "error: the rate is lines a second, more than 0 and at most \(Int(Self.maximumRate)); found '\(words[2])'"
            }
            rate = given
        }
        connection.limitSendBuffer(to: 16_384)
        lock.withLock {
            var subscription = subscriptions[ObjectIdentifier(connection)] ?? Subscription(connection: connection)
            subscription.rates[topic] = rate
            subscriptions[ObjectIdentifier(connection)] = subscription
        }
        return "ok subscribed \(topic.rawValue) \(formatRate(rate))"
    }

    /// Whether no client subscribes to anything.
    var isEmpty: Bool { lock.withLock { subscriptions.values.allSatisfy { $0.rates.isEmpty } } }

    /// Forgets a client that left.
    func remove(_ connection: ControlConnection) {
        lock.withLock { subscriptions[ObjectIdentifier(connection)] = nil }
    }

    /// Whether some client is due a `topic` line at `now` (seconds on any steady clock).
    func isDue(_ topic: Topic, at now: Double) -> Bool {
        lock.withLock { subscriptions.values.contains { subscription in isDue(subscription, topic, now) } }
    }

    /// Pushes `line` (a JSON object) to every client due a `topic` line at `now`.
    func push(_ topic: Topic, _ line: String, at now: Double) {
        let due: [ControlConnection] = lock.withLock {
            var due: [ControlConnection] = []
            for (key, subscription) in subscriptions where isDue(subscription, topic, now) {
                subscriptions[key]?.lastPush[topic] = now
                due.append(subscription.connection)
            }
            return due
        }
        let failed = due.filter { !$0.push(line) }.count
        if failed > 0 { lock.withLock { dropped += failed } }
    }

    /// Lines dropped because a subscriber was not reading.
    var droppedLines: Int { lock.withLock { dropped } }

    private func isDue(_ subscription: Subscription, _ topic: Topic, _ now: Double) -> Bool {
        guard let rate = subscription.rates[topic] else { return false }
        return topic == .notices || now - (subscription.lastPush[topic] ?? -.infinity) >= 1 / rate - 1e-3
    }

    private func formatRate(_ rate: Double) -> String { rate == rate.rounded() ? String(Int(rate)) : String(rate) }
}
