import AUCore
import CAUSupport
import CLilv
import Foundation
import Synchronization

/// The host side of `log:log` for one unit. The variadic `printf` is formatted by the C
/// shim into a bounded stack buffer; the text then arrives here.
///
/// Messages logged on the render thread go into a fixed ring (no allocation) and are
/// printed later by ``drain()``; messages from other threads are kept at once. Errors and
/// warnings are printed on standard error with the plugin's URI; every message is kept in
/// ``recentMessages`` (the last 32) so that errors can quote what the plugin said.
/// - Thread: [any] the sink runs anywhere; ``drain()`` and ``recentMessages`` on control.
final class LV2Log: @unchecked Sendable {
    /// One message on its way out of the render thread.
    struct Line: BitwiseCopyable {
        var type: UInt32 = 0
        var length: UInt16 = 0
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    let pluginURI: String
    /// The `LV2_Log_Log*` to hand to the plugin as the feature's data.
    private(set) var featureData: UnsafeMutableRawPointer?
    private let renderLines = RealTimeRing<Line>(minimumCapacity: 64)
    private let kept = Mutex<[String]>([])
    private let errorURID: LV2_URID
    private let warningURID: LV2_URID
    private let urids: URIDMap
    /// Print errors and warnings on standard error (tests turn it off for expected noise).
    let echoesToStandardError: Bool

    init(pluginURI: String, urids: URIDMap, echoesToStandardError: Bool = true) {
        self.pluginURI = pluginURI
        self.urids = urids
        self.echoesToStandardError = echoesToStandardError
        errorURID = urids.map(LV2URI.logError)
        warningURID = urids.map(LV2URI.logWarning)
        _ = urids.map(LV2URI.logNote)
        _ = urids.map(LV2URI.logTrace)
        featureData = au_lv2_log_new(Unmanaged.passUnretained(self).toOpaque()) { context, type, message in
            guard let context, let message else { return }
            Unmanaged<LV2Log>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.receive(type: type, message: message) }
        }
    }

    deinit { au_lv2_log_free(featureData) }

    /// The last messages, oldest first, each as `level: text`.
    var recentMessages: [String] { kept.withLock { $0 } }

    /// - Thread: [any]
    private func receive(type: UInt32, message: UnsafePointer<CChar>) {
        if RenderThread.isCurrent {
            var line = Line()
            line.type = type
            let length = min(strlen(message), MemoryLayout.size(ofValue: line.bytes))
            line.length = UInt16(length)
            withUnsafeMutableBytes(of: &line.bytes) { $0.baseAddress!.copyMemory(from: message, byteCount: length) }
            renderLines.push(line)
        } else {
            keep(type: type, text: String(cString: message))
        }
    }

    /// Keeps and prints what the render thread logged.
    /// - Thread: [control]
    func drain() {
        while let line = renderLines.pop() {
            let length = Int(line.length)
            let text = withUnsafeBytes(of: line.bytes) { String(decoding: $0.prefix(length), as: UTF8.self) }
            keep(type: line.type, text: text)
        }
    }

    private func keep(type: UInt32, text: String) {
        let level = type == errorURID ? "error" : type == warningURID ? "warning" : (urids.uri(of: type).map { String($0.split(separator: "#").last ?? "note").lowercased() } ?? "note")
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        kept.withLock { messages in
            messages.append("\(level): \(trimmed)")
            if messages.count > 32 { messages.removeFirst(messages.count - 32) }
        }
        if echoesToStandardError && (type == errorURID || type == warningURID) {
            FileHandle.standardError.write(Data("lv2: \(pluginURI): \(level): \(trimmed)\n".utf8))
        }
    }
}
