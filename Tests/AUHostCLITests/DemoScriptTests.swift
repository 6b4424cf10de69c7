import AUTestSupport
import Foundation
import Testing

/// scripts/demo.sh on a machine with many units: its lists are longer than what it shows.
@Suite struct DemoScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A stand-in `auhost` whose every list is 20,000 lines (the LV2 one starts with the swh
    /// amp) and which dies of SIGPIPE when its reader leaves, as most programs do; the other
    /// commands print a line and `render` creates its `-o` file.
    static let stub = """
        #!/usr/bin/env bash
        trap - PIPE
        case "$1" in
          list)
            if [ "$2 $3" = "--format lv2" ]; then echo "aufx:amp :SWH   Amp  lv2  http://plugin.org.uk/swh-plugins/amp"; fi
            yes "aumu:fake:Fake  A Fake Instrument  Instrument  lv2  urn:fake" | head -n 20000 ;;
          render)
            while [ $# -gt 0 ]; do if [ "$1" = -o ]; then : > "$2"; fi; shift; done ;;
          *) echo "stub $*" ;;
        esac

        """

    @Test(.timeLimit(.minutes(1))) func theDemoSurvivesLongLists() throws {
        let folder = try TemporaryFolder(prefix: "auhost-demo")
        defer { folder.remove() }
        let stub = folder.url.appendingPathComponent("auhost")
        try Self.stub.write(to: stub, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)

        let (status, output, errors) = try runProcess(
            URL(fileURLWithPath: "/bin/bash"), [Self.repository.appendingPathComponent("scripts/demo.sh").path, stub.path],
            environment: ["DEMO_DIR": folder.file("demo")], directory: Self.repository)
        #expect(status == 0, "\(output)\n\(errors)")
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let instruments = try #require(lines.firstIndex(of: "== auhost list --type aumu (instruments)"), "\(output)")
        #expect(lines[(instruments + 1)...].prefix { !$0.isEmpty }.count == 12, "\(output)")
        #expect(lines.contains("== auhost info http://plugin.org.uk/swh-plugins/amp"), "\(output)")
        #expect(lines.contains("lv2      20001 units"), "\(output)")
        #expect(output.contains("The result is "), "\(output)")
    }
}
