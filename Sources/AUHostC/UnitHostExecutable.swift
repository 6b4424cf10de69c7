import AUHost
import CAUSupport
import Foundation

/// The `auhost-unit-host` executable that runs a chain's isolated units when the library is
/// loaded by another program (Python, a C host), where "beside the running executable" is
/// that program's folder.
/// - Thread: [control]
enum UnitHostExecutable {
    /// `$AUHOST_UNIT_HOST`; else `auhost-unit-host` beside this library (a build folder),
    /// else in `../bin` from it (`make install`: PREFIX/lib and PREFIX/bin); else beside the
    /// running executable, which the error of the first isolated unit then names.
    /// - Thread: [control]
    static var path: String {
        if let named = ProcessInfo.processInfo.environment[BridgeIsolator.executableVariable], !named.isEmpty { return named }
        if let library = libraryFolder {
            for candidate in [library.appendingPathComponent("auhost-unit-host"), library.deletingLastPathComponent().appendingPathComponent("bin/auhost-unit-host")]
            where FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate.path
            }
        }
        return BridgeIsolator.standardExecutable()
    }

    /// The folder of the shared object this code is in (`dladdr` of one of its functions).
    private static var libraryFolder: URL? {
        var offset: UInt = 0
        let function: @convention(c) () -> Void = {}  // compiled into this library
        let address = UInt(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
        guard let name = au_strict_module(address, &offset) else { return nil }
        return URL(fileURLWithPath: String(cString: name)).resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
