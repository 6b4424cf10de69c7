import Foundation

/// Writes an LV2 bundle of the fixture library's `urn:auhost:fixture:NAME` (mono in, mono
/// out, and `extraPorts`: more Turtle port descriptions) into `folder`: the Turtle of
/// Tests/LV2Fixtures/bundle (which the Python tests fill in too) and a copy of the package's
/// `libLV2Fixtures.so`.
/// - Thread: [any]
public func writeFixtureBundle(_ fixture: String, name: String, into folder: URL, extraPorts: [String] = []) throws {
    let bundle = folder.appendingPathComponent("\(fixture).lv2")
    try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("LV2Fixtures/bundle")
    for file in ["manifest.ttl", "plugin.ttl"] {
        let text = try String(contentsOf: templates.appendingPathComponent(file), encoding: .utf8)
            .replacingOccurrences(of: "@FIXTURE@", with: fixture)
            .replacingOccurrences(of: "@NAME@", with: name)
            .replacingOccurrences(of: "@EXTRA_PORTS@", with: extraPorts.map { " ,\n             " + $0 }.joined())
        try text.write(to: bundle.appendingPathComponent(file), atomically: true, encoding: .utf8)
    }
    let library = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("libLV2Fixtures.so")
    try FileManager.default.copyItem(at: library, to: bundle.appendingPathComponent("fixtures.so"))
}
