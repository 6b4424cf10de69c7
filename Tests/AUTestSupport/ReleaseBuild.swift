import Foundation

/// The package's release build (`.build/release`), for the tests that only optimized code can
/// pass (no retain on the render thread): usable when every product they need is built there
/// after the last change to any file of the sources it is made from.
/// - Thread: [control]
public enum ReleaseBuild {
    /// The package's root folder.
    /// - Thread: [any]
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `.build/release` when each of `products` (file names there) exists and no file under
    /// `sources` (folders of the package, such as `Sources/AUCore` or `Plugins/Gain`) is newer
    /// than the last of them the build relinked (a build relinks only what changed: the C
    /// shim is not relinked for a Swift change); nil for a missing or stale build.
    /// - Thread: [control]
    public static func upToDate(products: [String], sources: [String]) -> URL? {
        let release = root.appendingPathComponent(".build/release")
        let built = products.compactMap { try? release.appendingPathComponent($0).resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate }
        guard built.count == products.count, let newest = built.max() else { return nil }
        for folder in sources {
            let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: [.contentModificationDateKey])
            while let file = files?.nextObject() as? URL {
                if let date = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate, date > newest { return nil }
            }
        }
        return release
    }
}
