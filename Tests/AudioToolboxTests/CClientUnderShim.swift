import AUTestSupport
import Foundation

/// Builds a C client of the library and runs it under the AllocCounter shim (the render
/// path's allocation checks through the C API).
enum CClientUnderShim {
    /// `foundation`: linked with libFoundation too (a client calling CF functions).
    static func run(_ source: String, name: String, foundation: Bool = false) throws -> (status: Int32, text: String) {
        let folder = try AudioToolboxBuild.scratchFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = folder.appendingPathComponent("Examples/client")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let file = sources.appendingPathComponent("main.c")
        try source.write(to: file, atomically: true, encoding: .utf8)
        var program = folder.appendingPathComponent("client")
        if foundation {
            program = try PlaySequenceExampleTests.compileExample("client", into: folder, root: folder)
        } else {
            try AudioToolboxBuild.compileC(file, to: program)
        }
        var shim = AudioToolboxBuild.directory.appendingPathComponent("libAllocCounter.so")
        if !FileManager.default.fileExists(atPath: shim.path) { shim = AudioToolboxBuild.root.appendingPathComponent(".build/debug/libAllocCounter.so") }
        let run = try runUnderAllocCounter(program, arguments: [], shim: shim)
        return (run.status, run.text)
    }
}
