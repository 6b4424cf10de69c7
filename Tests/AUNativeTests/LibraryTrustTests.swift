import AUCore
import Foundation
import Testing
@testable import AUNative

/// The loader trusts a library by its real path and every folder above it (docs/WRITING-UNITS.md, "Trust").
@Suite struct LibraryTrustTests {
    /// A symbolic link in a private folder to a library in a folder everyone may write.
    @Test func aLinkToALibraryInAWorldWritableFolderIsRefused() throws {
        let trusted = try CLibraryFixtures.makeFolder("link-trusted"), open = try CLibraryFixtures.makeFolder("link-open")
        defer { [trusted, open].forEach { try? FileManager.default.removeItem(at: $0) } }
        let library = try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: open)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open.path)
        try FileManager.default.createSymbolicLink(atPath: trusted.path + "/libcgain.so", withDestinationPath: library.path)
        let found = NativeProvider(searchPath: PluginSearchPath([trusted.path])).discoverComponents()
        #expect(found.components.isEmpty)
        #expect(found.problems.map(\.location) == [trusted.path + "/libcgain.so"])
        #expect(found.problems.first?.message.contains("\(open.path) is writable by every user") == true, "\(found.problems)")
    }

    /// A private folder inside a folder everyone may write: anyone could rename it away and put another in its place.
    @Test func aLibraryUnderAWorldWritableFolderIsRefused() throws {
        let parent = try CLibraryFixtures.makeFolder("open-parent")
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("private")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: parent.path)
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        #expect(found.components.isEmpty)
        #expect(found.problems.first?.message.contains("the folder above it \(parent.path) is writable by every user") == true, "\(found.problems)")
    }

    @Test func aGroupWritableFolderIsRefused() throws {
        let folder = try CLibraryFixtures.makeFolder("group-writable")
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: folder.path)
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        #expect(found.components.isEmpty)
        #expect(found.problems.first?.message.contains("its folder \(folder.path) is writable by its group") == true, "\(found.problems)")
    }

    /// The owner rule, on the real file, as any user: the check is told to trust only
    /// someone who is not the file's owner.
    @Test func aLibraryOwnedBySomeoneElseIsRefused() throws {
        let folder = try CLibraryFixtures.makeFolder("other-owner")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: folder)
        let owner = try #require(DynamicLinker.status(library.path)).owner
        let refusal = try #require(LibraryTrust.check(library.path, trustedOwners: [owner &+ 1]).failure)
        #expect(refusal.message.contains("the file is owned by user \(owner), not by user \(owner &+ 1)"))
        #expect(try LibraryTrust.check(library.path, trustedOwners: [owner]).get() == library.path)
    }

    static let regularFile = FileStatus(owner: 1000, mode: UInt32(S_IFREG) | 0o644)
    static func folder(owner: UInt32, mode: UInt32) -> FileStatus { FileStatus(owner: owner, mode: UInt32(S_IFDIR) | mode) }

    /// The rule on given statuses: a folder on the way owned by another user is refused.
    @Test func aFolderOwnedBySomeoneElseIsRefused() throws {
        let folders = [("/home/b/plugins", Self.folder(owner: 1001, mode: 0o755)), ("/home/b", Self.folder(owner: 1001, mode: 0o755)), ("/", Self.folder(owner: 0, mode: 0o755))]
        let refusal = LibraryTrust.refusal(resolved: "/home/b/plugins/libx.so", named: "/home/a/libx.so", file: Self.regularFile, folders: folders, trustedOwners: [0, 1000])
        #expect(refusal?.message.contains("its folder /home/b/plugins is owned by user 1001, not by root or user 1000") == true, "\(String(describing: refusal))")
    }

    /// A world-writable folder is accepted only when it is root's and sticky (like /tmp).
    @Test func onlyARootOwnedStickyFolderMayBeWritableByEveryUser() {
        func refusal(_ tmp: FileStatus) -> LibraryTrust.Refusal? {
            LibraryTrust.refusal(
                resolved: "/tmp/mine/libx.so", named: "/tmp/mine/libx.so", file: Self.regularFile,
                folders: [("/tmp/mine", Self.folder(owner: 1000, mode: 0o755)), ("/tmp", tmp), ("/", Self.folder(owner: 0, mode: 0o755))],
                trustedOwners: [0, 1000])
        }
        #expect(refusal(Self.folder(owner: 0, mode: 0o1777)) == nil)
        #expect(refusal(Self.folder(owner: 0, mode: 0o777))?.message.contains("/tmp is writable by every user (mode 0777)") == true)
        #expect(refusal(Self.folder(owner: 1000, mode: 0o1777))?.message.contains("/tmp is writable by every user (mode 01777)") == true)
    }

    @Test func theFoldersAboveARealPathEndAtTheRoot() {
        #expect(LibraryTrust.ancestors(of: "/usr/local/lib/x.so") == ["/usr/local/lib", "/usr/local", "/usr", "/"])
        #expect(LibraryTrust.ancestors(of: "/x.so") == ["/"])
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
