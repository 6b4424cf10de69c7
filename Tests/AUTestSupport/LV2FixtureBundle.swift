import Foundation

/// Writes an LV2 bundle of the fixture library's `urn:auhost:fixture:NAME` (mono in, mono
/// out, and `extraPorts`: more Turtle port descriptions) into `folder`: the Turtle, and a
/// copy of the package's `libLV2Fixtures.so`.
/// - Thread: [any]
public func writeFixtureBundle(_ fixture: String, name: String, into folder: URL, extraPorts: [String] = []) throws {
    let bundle = folder.appendingPathComponent("\(fixture).lv2")
    try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    let prefixes = """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix doap: <http://usefulinc.com/ns/doap#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

        """
    let manifest = prefixes + "<urn:auhost:fixture:\(fixture)> a lv2:Plugin ; lv2:binary <fixtures.so> ; rdfs:seeAlso <plugin.ttl> .\n"
    let plugin = prefixes + """
        <urn:auhost:fixture:\(fixture)> a lv2:Plugin , lv2:UtilityPlugin ;
            doap:name "\(name)" ;
            lv2:port [ a lv2:InputPort , lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                     [ a lv2:OutputPort , lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ]\(extraPorts.map { " ,\n             " + $0 }.joined()) .

        """
    try manifest.write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
    try plugin.write(to: bundle.appendingPathComponent("plugin.ttl"), atomically: true, encoding: .utf8)
    let library = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("libLV2Fixtures.so")
    try FileManager.default.copyItem(at: library, to: bundle.appendingPathComponent("fixtures.so"))
}
