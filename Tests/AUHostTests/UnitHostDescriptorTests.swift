import Foundation
import Testing
@testable import AUBridge

/// A unit-host child holds none of the host's descriptors but its own socket and doorbell: one that kept
/// a pipe would keep the pipe's reader from ever seeing its end (an exit test of this very
/// process waited for one such pipe past its time limit while an isolated chain lived).
@Suite struct UnitHostDescriptorTests {
    @Test("a unit-host child inherits only standard input, output, error, its socket and its doorbell")
    func aUnitHostInheritsOnlyItsSocket() throws {
        var ends: [Int32] = [0, 0]
        // Not close-on-exec: what a spawn that closes nothing passes on.
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var status = stat()
        try #require(fstat(ends[1], &status) == 0)
        let host = try UnitHostProcess(executable: BridgeIsolator.standardExecutable(), timeout: 10)
        // The child ends once the one unit it was to host is given up.
        defer {
            _ = host.reserveUnit()
            host.abandonUnit()
        }
        let folder = "/proc/\(host.pid)/fd"
        let targets = try FileManager.default.contentsOfDirectory(atPath: folder).compactMap { name in
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")
        }
        #expect(!targets.isEmpty, "no descriptors read from \(folder)")
        #expect(!targets.contains("pipe:[\(status.st_ino)]"), "the child holds the host's pipe: \(targets)")
    }
}
