import AUCore
import Foundation
import Testing
@testable import AULV2

/// The lilv seam (Sources/AULV2/Lilv): the only files that call lilv, each call under the
/// world's lock taken inside the wrapper.
@Suite struct LilvSeamTests {
    /// No file of AULV2 outside the seam names a lilv function.
    @Test func onlyTheSeamCallsLilv() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/AULV2")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String])
        let swiftFiles = files.filter { $0.hasSuffix(".swift") }
        #expect(swiftFiles.contains { $0.hasPrefix("Lilv/") })
        for file in swiftFiles where !file.hasPrefix("Lilv/") {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            #expect(!text.contains("lilv_"), "\(file) names a lilv function; call the seam in Sources/AULV2/Lilv instead")
        }
    }

    /// Units of one world made, initialized and freed on several threads at once: lilv
    /// instantiates and frees under the world's lock (it edits the world's library list).
    @Test func unitsOfOneWorldInstantiateAndFreeInParallel() async throws {
        let found = LV2TestSupport.provider().discoverComponents()
        let component = try #require(found.components.first { $0.identifier == AmpTests.uri }, "swh amp is not installed")
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var failures = 0
                    for _ in 0..<10 {
                        do {
                            let unit = try component.instantiate() as! LV2Unit
                            unit.renderMode = .offline
                            try unit.initialize()
                            _ = unit.presetList
                            unit.uninitialize()
                        } catch {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
