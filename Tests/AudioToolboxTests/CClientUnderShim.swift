import AUTestSupport
import Foundation

/// Builds a C client of the library and runs it under the AllocCounter shim (the render
/// path's allocation checks through the C API).
enum CClientUnderShim {
    static func run(_ source: String, name: String) throws -> (status: Int32, text: String) {
        let folder = try AudioToolboxBuild.scratchFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("client.c")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let program = folder.appendingPathComponent("client")
        try AudioToolboxBuild.compileC(file, to: program)
        var shim = AudioToolboxBuild.directory.appendingPathComponent("libAllocCounter.so")
        if !FileManager.default.fileExists(atPath: shim.path) { shim = AudioToolboxBuild.root.appendingPathComponent(".build/debug/libAllocCounter.so") }
        let run = try runUnderAllocCounter(program, arguments: [], shim: shim)
        return (run.status, run.text)
    }
}
