import Foundation

/// Writes an LV2 bundle for the worker fixture of the package's `libLV2Fixtures.so`
/// (`urn:auhost:fixture:worker`: schedules work in every `run()`, the work responds) into a
/// fresh temporary folder, and gives the LV2 path that finds it and the installed plugins.
/// - Thread: [control]
func workerFixtureLV2Path(library: URL) throws -> String {
    let root = try TemporaryFolder.make("lv2")
    let bundle = root.appendingPathComponent("worker.lv2")
    try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: library, to: bundle.appendingPathComponent("fixtures.so"))
    let prefixes = """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix doap: <http://usefulinc.com/ns/doap#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

        """
    try (prefixes + "<\(CheckGraph.workerFixture)> a lv2:Plugin ; lv2:binary <fixtures.so> ; rdfs:seeAlso <plugin.ttl> .\n")
        .write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
    try (prefixes + """
        <\(CheckGraph.workerFixture)> a lv2:Plugin , lv2:UtilityPlugin ;
            doap:name "Fixture Worker" ;
            lv2:requiredFeature <http://lv2plug.in/ns/ext/worker#schedule> ;
            lv2:extensionData <http://lv2plug.in/ns/ext/worker#interface> ;
            lv2:port [ a lv2:InputPort , lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                     [ a lv2:OutputPort , lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] .

        """).write(to: bundle.appendingPathComponent("plugin.ttl"), atomically: true, encoding: .utf8)
    let installed = ProcessInfo.processInfo.environment["LV2_PATH"] ?? "\(NSHomeDirectory())/.lv2:/usr/local/lib/lv2:/usr/lib/lv2"
    return root.path + ":" + installed
}
