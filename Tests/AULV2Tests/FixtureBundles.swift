import Foundation

/// Writes the failure-mode fixture bundles into a fresh temporary LV2_PATH directory: each
/// bundle gets a copy of the package's `libLV2Fixtures.so` and Turtle written here.
struct FixtureBundles {
    let root: URL

    /// The directory with the test binary, `auhost` and `libLV2Fixtures.so`.
    static var productsDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static var fixtureLibrary: URL { productsDirectory.appendingPathComponent("libLV2Fixtures.so") }

    private static let prefixes = """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix doap: <http://usefulinc.com/ns/doap#> .
        @prefix foaf: <http://xmlns.com/foaf/0.1/> .

        """

    /// A mono pass-through plugin description.
    private static func plugin(_ uri: String, name: String, extra: String = "") -> String {
        """
        <\(uri)> a lv2:Plugin , lv2:UtilityPlugin ;
            doap:name "\(name)" ;
            doap:maintainer [ foaf:name "AUHost Fixtures" ] ;
            \(extra)
            lv2:port [ a lv2:InputPort , lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                     [ a lv2:OutputPort , lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] .

        """
    }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-lv2-fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try bundle("passthrough", uri: "urn:auhost:fixture:passthrough", data: Self.plugin("urn:auhost:fixture:passthrough", name: "Fixture Passthrough"))
        try bundle(
            "needs-feature", uri: "urn:auhost:fixture:needs-feature",
            data: Self.plugin("urn:auhost:fixture:needs-feature", name: "Fixture Needs Feature", extra: "lv2:requiredFeature <urn:auhost:fixture:unobtainium> ;"))
        try bundle("null-instance", uri: "urn:auhost:fixture:null-instance", data: Self.plugin("urn:auhost:fixture:null-instance", name: "Fixture Null Instance"))
        try bundle("crash-in-run", uri: "urn:auhost:fixture:crash-in-run", data: Self.plugin("urn:auhost:fixture:crash-in-run", name: "Fixture Crash In Run"))
        try bundle("bad-turtle", uri: "urn:auhost:fixture:bad-turtle", data: "<urn:auhost:fixture:bad-turtle> a lv2:Plugin ; doap:name \"Broken ;; [[ \n")
        try bundle(
            "fixed-block", uri: "urn:auhost:fixture:fixed-block",
            data: Self.plugin(
                "urn:auhost:fixture:fixed-block", name: "Fixture Fixed Block",
                extra: "lv2:requiredFeature <http://lv2plug.in/ns/ext/buf-size#fixedBlockLength> ;"))
        try bundle("forge-verdict", uri: "urn:auhost:fixture:forge-verdict", data: Self.plugin("urn:auhost:fixture:forge-verdict", name: "Fixture Forge Verdict"))
        try bundle(
            "worker", uri: "urn:auhost:fixture:worker",
            data: Self.plugin(
                "urn:auhost:fixture:worker", name: "Fixture Worker",
                extra: "lv2:requiredFeature <http://lv2plug.in/ns/ext/worker#schedule> ; lv2:extensionData <http://lv2plug.in/ns/ext/worker#interface> ;"))
        try bundle(
            "nominal-block", uri: "urn:auhost:fixture:nominal-block",
            data: Self.plugin(
                "urn:auhost:fixture:nominal-block", name: "Fixture Nominal Block",
                extra: "lv2:requiredFeature <http://lv2plug.in/ns/ext/urid#map> , <http://lv2plug.in/ns/ext/options#options> ;"))
        try bundle("nan-output", uri: "urn:auhost:fixture:nan-output", data: Self.plugin("urn:auhost:fixture:nan-output", name: "Fixture NaN Output"))
        try bundle("run-forever", uri: "urn:auhost:fixture:run-forever", data: Self.plugin("urn:auhost:fixture:run-forever", name: "Fixture Run Forever"))
        try garbageManifestBundle()
        try bundle("missing-binary", uri: "urn:auhost:fixture:missing-binary", data: Self.plugin("urn:auhost:fixture:missing-binary", name: "Fixture Missing Binary"), binary: "missing.so")
    }

    /// A bundle `<name>.lv2` with a manifest naming `binary` and the plugin data file.
    private func bundle(_ name: String, uri: String, data: String, binary: String = "fixtures.so") throws {
        let directory = root.appendingPathComponent("\(name).lv2")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let manifest = Self.prefixes + """
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            <\(uri)> a lv2:Plugin ; lv2:binary <\(binary)> ; rdfs:seeAlso <plugin.ttl> .

            """
        try manifest.write(to: directory.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try (Self.prefixes + data).write(to: directory.appendingPathComponent("plugin.ttl"), atomically: true, encoding: .utf8)
        if binary == "fixtures.so" {
            try FileManager.default.copyItem(at: Self.fixtureLibrary, to: directory.appendingPathComponent(binary))
        }
    }

    /// `garbage-manifest.lv2`, whose manifest is not Turtle: lilv skips the bundle.
    private func garbageManifestBundle() throws {
        let directory = root.appendingPathComponent("garbage-manifest.lv2")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try (Self.prefixes + "<urn:auhost:fixture:garbage> a lv2:Plugin ; garbage garbage [[[ \n")
            .write(to: directory.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
