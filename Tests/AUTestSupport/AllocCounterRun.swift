import Foundation

/// Runs `executable` with `arguments` under the AllocCounter shim (`LD_PRELOAD=shim`), the
/// rest of the environment as it is, and returns its exit status and what it printed
/// (standard output and standard error together).
public func runUnderAllocCounter(_ executable: URL, arguments: [String], shim: URL) throws -> (status: Int32, text: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["LD_PRELOAD"] = shim.path
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try ChildProcess.launch(process)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
