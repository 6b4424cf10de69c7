import Foundation
import Testing
import AUTestSupport
@testable import AUCore

/// A new empty folder of its own for one test (tests run in parallel).
private func makeFolder() throws -> String {
    var template = Array("\(NSTemporaryDirectory())/auhost-atomic-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    try #require(made != nil)
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Runs `body` with a new folder, deleted afterwards.
private func inFolder(_ body: (String) throws -> Void) throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder)
}

private func contents(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// The pid of a process that has exited (`/bin/true`, waited for).
private func deadProcessID() throws -> Int32 {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try ChildProcess.launch(child)
    child.waitUntilExit()
    return child.processIdentifier
}

/// The one atomic writer behind audio output files and saved presets (its callers' error
/// wording is tested in AUFilesTests and AUPresetsTests).
@Suite struct AtomicFileTests {

    @Test func theFileAppearsOnlyAtCommitWithANewFileMode() throws {
        try inFolder { folder in
            let path = folder + "/new.json"
            let file = try AtomicFile(destination: path, overwrite: false)
            try file.write(Data("text".utf8))
            #expect(!FileManager.default.fileExists(atPath: path), "nothing at the destination while writing")
            #expect(contents(folder).isEmpty, "the file has no name until it is complete (O_TMPFILE)")
            try file.commit()
            #expect(contents(folder) == ["new.json"], "the temporary file was renamed, not copied")
            #expect(FileManager.default.contents(atPath: path) == Data("text".utf8))
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode != 0o600, "the file gets a normal file mode, not mkstemp's 0600")
        }
    }

    /// A name that starts with a combining mark: `/folder/\u{301}` is, as Characters, one
    /// slash-with-accent, so a Character search for the last "/" found the folder's parent
    /// and the commit failed with ENOENT (found by the control command fuzzer's long mode).
    @Test func aNameStartingWithACombiningMarkIsWrittenInItsFolder() throws {
        try inFolder { folder in
            for (kind, path) in [("unnamed", folder + "/\u{301}"), ("named", folder + "/\u{301}x")] {
                let file = try AtomicFile(destination: path, overwrite: false, inputs: [], temporary: kind == "named" ? .named : .unnamedWhereSupported)
                try file.write(Data(kind.utf8))
                try file.commit()
                #expect(FileManager.default.contents(atPath: path) == Data(kind.utf8), "\(kind)")
            }
            #expect(contents(folder) == ["\u{301}", "\u{301}x"].sorted(), "\(contents(folder))")
        }
    }

    @Test func replacingKeepsTheReplacedFilesMode() throws {
        try inFolder { folder in
            let path = folder + "/mine.txt"
            #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o640]))
            let file = try AtomicFile(destination: path, overwrite: true)
            try file.write(Data("new".utf8))
            try file.commit()
            #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        }
    }

    @Test func anExistingFileIsRefusedWithoutOverwrite() throws {
        try inFolder { folder in
            let path = folder + "/keep.txt"
            #expect(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
            #expect(throws: AtomicFileFailure.destinationExists) { _ = try AtomicFile(destination: path, overwrite: false) }
            #expect(contents(folder) == ["keep.txt"])
        }
    }

    @Test func aFileAppearingBeforeTheCommitIsKept() throws {
        try inFolder { folder in
            let path = folder + "/late.txt"
            let file = try AtomicFile(destination: path, overwrite: false)
            try file.write(Data("mine".utf8))
            #expect(FileManager.default.createFile(atPath: path, contents: Data("theirs".utf8)))
            #expect(throws: AtomicFileFailure.destinationAppeared) { try file.commit() }
            #expect(FileManager.default.contents(atPath: path) == Data("theirs".utf8))
            #expect(contents(folder) == ["late.txt"])
        }
    }

    @Test func discardingLeavesTheDestinationAsItWas() throws {
        try inFolder { folder in
            let path = folder + "/mix.txt"
            #expect(FileManager.default.createFile(atPath: path, contents: Data("before".utf8)))
            do {
                let file = try AtomicFile(destination: path, overwrite: true)
                try file.write(Data("after".utf8))
            }
            #expect(FileManager.default.contents(atPath: path) == Data("before".utf8))
            #expect(contents(folder) == ["mix.txt"])
        }
    }

    @Test func badDestinationsAreRefusedBeforeAnythingIsWritten() throws {
        try inFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
            #expect(throws: AtomicFileFailure.notAFileName) { _ = try AtomicFile(destination: folder + "/", overwrite: true) }
            #expect(throws: AtomicFileFailure.destinationIsAFolder) { _ = try AtomicFile(destination: folder + "/sub", overwrite: true) }
            #expect(throws: AtomicFileFailure.folderMissing(folder + "/none", exists: false)) {
                _ = try AtomicFile(destination: folder + "/none/file", overwrite: true)
            }
            #expect(contents(folder) == ["sub"])
        }
    }

    /// The folder disappears before the commit: the move fails and nothing is left.
    @Test func aFailingMoveLeavesNoFile() throws {
        try inFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: false)
            let file = try AtomicFile(destination: folder + "/out/gone.txt", overwrite: true)
            try file.write(Data("text".utf8))
            try FileManager.default.removeItem(atPath: folder + "/out")
            #expect(throws: AtomicFileFailure.self) { try file.commit() }
            #expect(contents(folder).isEmpty)
        }
    }

    @Test func concurrentWritersToOneNameLeaveExactlyOneWinner() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/race.txt"
        let texts = (0..<8).map { "writer \($0)" }
        let results = await withTaskGroup(of: Bool.self) { group in
            for text in texts {
                group.addTask {
                    do {
                        let file = try AtomicFile(destination: path, overwrite: false)
                        try file.write(Data(text.utf8))
                        try file.commit()
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1)
        #expect(contents(folder) == ["race.txt"])
        #expect(texts.contains(String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)))
    }
}

/// What a writer must never replace: a device, a FIFO, an input of its own command.
@Suite struct AtomicFileRefusalTests {
    @Test func aFIFOIsNeverReplacedEvenWithOverwrite() throws {
        try inFolder { folder in
            let fifo = folder + "/pipe"
            try #require(mkfifo(fifo, 0o600) == 0)
            #expect(throws: AtomicFileFailure.notARegularFile(.fifo)) { try AtomicFile(destination: fifo, overwrite: true) }
            #expect(AtomicFile.NodeKind(path: fifo) == .fifo)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pipe"], "no temporary file left")
        }
    }

    /// A link in a folder of the test's own to the null device: refused in `init`, before
    /// anything is created, so the device is never touched.
    @Test func aDeviceBehindALinkIsRefusedBeforeAnythingIsMade() throws {
        try inFolder { folder in
            let link = folder + "/null"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
            #expect(throws: AtomicFileFailure.notARegularFile(.characterDevice)) { try AtomicFile(destination: link, overwrite: true) }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
        }
    }

    @Test func anInputIsNeverWrittenOverHoweverItIsNamed() throws {
        try inFolder { folder in
            let input = folder + "/preset.json"
            try Data("{}".utf8).write(to: URL(fileURLWithPath: input))
            try #require(link(input, folder + "/other-name.json") == 0)
            #expect(throws: AtomicFileFailure.destinationIsAnInput(folder + "/other-name.json")) {
                try AtomicFile(destination: folder + "/./preset.json", overwrite: true, inputs: [folder + "/other-name.json"])
            }
            #expect(FileManager.default.contents(atPath: input) == Data("{}".utf8))
        }
    }

    /// A named temporary file (the fallback where O_TMPFILE is refused) of a process that is
    /// gone is deleted by the next writer into its folder; a live process's is kept.
    @Test func staleTemporariesOfDeadProcessesAreRemoved() throws {
        try inFolder { folder in
            let dead = "\(folder)/.take.wav.auhost-\(try deadProcessID())-a1b2c3"
            let live = "\(folder)/.mine.wav.auhost-\(getpid())-d4e5f6"
            let other = "\(folder)/.notes.txt"
            for path in [dead, live, other] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
            let file = try AtomicFile(destination: folder + "/new.wav", overwrite: false)
            file.discard()
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".mine.wav.auhost-\(getpid())-d4e5f6", ".notes.txt"])
        }
    }
}

/// The named temporary file (`mkstemp`), the fallback where the file system refuses unnamed
/// files, forced through the internal initializer.
@Suite struct AtomicFileNamedTemporaryTests {
    /// While writing, the file is the hidden `.<name>.auhost-<pid>-XXXXXX`; the commit puts
    /// it in place with a new file's mode and leaves nothing else.
    @Test(arguments: [false, true]) func commitMovesTheNamedTemporaryIntoPlace(overwrite: Bool) throws {
        try inFolder { folder in
            let path = folder + "/take.wav"
            let file = try AtomicFile(destination: path, overwrite: overwrite, inputs: [], temporary: .named)
            try file.write(Data("text".utf8))
            let hidden = contents(folder)
            #expect(hidden.count == 1 && hidden[0].hasPrefix(".take.wav.auhost-\(getpid())-"), "named temporary: \(hidden)")
            try file.commit()
            #expect(contents(folder) == ["take.wav"])
            #expect(FileManager.default.contents(atPath: path) == Data("text".utf8))
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            let plain = open(folder + "/plain", O_CREAT | O_WRONLY, 0o666)
            close(plain)
            let newFileMode = try FileManager.default.attributesOfItem(atPath: folder + "/plain")[.posixPermissions] as? Int
            #expect(mode == newFileMode, "what open(O_CREAT) gives, not mkstemp's 0600")
        }
    }

    @Test func discardAndDeinitLeaveNothing() throws {
        try inFolder { folder in
            let discarded = try AtomicFile(destination: folder + "/a.txt", overwrite: false, inputs: [], temporary: .named)
            try discarded.write(Data("a".utf8))
            discarded.discard()
            #expect(contents(folder).isEmpty)
            do {
                let abandoned = try AtomicFile(destination: folder + "/b.txt", overwrite: true, inputs: [], temporary: .named)
                try abandoned.write(Data("b".utf8))
                #expect(contents(folder).count == 1)
            }
            #expect(contents(folder).isEmpty, "deinit deleted the named temporary")
        }
    }

    /// Without overwrite a file that appeared at the destination meanwhile is kept, and the
    /// temporary is gone.
    @Test func anExistingDestinationIsUntouchedWithoutOverwrite() throws {
        try inFolder { folder in
            let path = folder + "/keep.txt"
            let file = try AtomicFile(destination: path, overwrite: false, inputs: [], temporary: .named)
            try file.write(Data("new".utf8))
            #expect(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
            #expect(throws: AtomicFileFailure.destinationAppeared) { try file.commit() }
            #expect(contents(folder) == ["keep.txt"])
            #expect(FileManager.default.contents(atPath: path) == Data("mine".utf8))
        }
    }

    /// A named temporary of a dead process (a pid that just exited) is removed by the next
    /// writer into the folder; one of a live process (this one) is kept.
    @Test func theNextWriterRemovesOnlyDeadProcessesTemporaries() throws {
        try inFolder { folder in
            let dead = ".take.wav.auhost-\(try deadProcessID())-Ab12Cd"
            let live = ".mine.wav.auhost-\(getpid())-Ef34Gh"
            for name in [dead, live] { try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
            let file = try AtomicFile(destination: folder + "/new.wav", overwrite: false, inputs: [], temporary: .named)
            try file.write(Data("y".utf8))
            try file.commit()
            #expect(contents(folder) == [live, "new.wav"])
        }
    }

    /// A writer SIGKILLed mid-write leaves its named temporary behind; the next writer into
    /// the folder removes it.
    @Test(.exitTestHangGuard) func aKilledWritersTemporaryIsRemovedByTheNextRun() async throws {
        let folder = "\(NSTemporaryDirectory())/auhost-killed-writer-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await #expect(processExitsWith: .signal(SIGKILL)) { [folder = folder as String] in
            let file = try AtomicFile(destination: folder + "/take.wav", overwrite: false, inputs: [], temporary: .named)
            try file.write(Data("half".utf8))
            kill(getpid(), SIGKILL)
        }
        let left = contents(folder)
        #expect(left.count == 1 && left.first?.hasPrefix(".take.wav.auhost-") == true, "the killed writer's temporary: \(left)")
        let file = try AtomicFile(destination: folder + "/take.wav", overwrite: false, inputs: [], temporary: .named)
        try file.write(Data("whole".utf8))
        try file.commit()
        #expect(contents(folder) == ["take.wav"])
    }
}
