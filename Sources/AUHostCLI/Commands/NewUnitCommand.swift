import AUHost
import Foundation

/// `auhost new-unit NAME --type T --subtype S`: scaffolds a native unit package outside the
/// repository — a `Package.swift` with one dynamic library depending on AUPluginSDK (from
/// `AUHOST_SDK` at build time, else an installed SDK or a path relative to the package), and a
/// unit source to start from — that builds with `swift build` and loads.
/// - Thread: [control]
enum NewUnitCommand: Command {
    static let name = "new-unit"
    static let summary = "scaffold a native Swift unit package (see docs/WRITING-UNITS.md)"
    static let help = """
        usage: auhost new-unit NAME --type T --subtype S [--manufacturer M] [--dir DIR] [--sdk PATH]

        Creates DIR/NAME (DIR defaults to the current folder): a Swift package whose one
        product, libNAME.so, is a native unit built against AUPluginSDK. Build it with
        `swift build`, copy the library into ~/.local/lib/auhost/plugins (or a folder on
        AUHOST_PLUGIN_PATH), and check it with `auhost info T:S:M`.

          NAME              the unit's Swift module and library name (letters, digits, _)
          --type T          aufx (effect), aumf (music effect), augn (generator), aumu (instrument)
                            or aumi (MIDI processor: MIDI in, MIDI out, no audio)
          --subtype S       the unit's subtype code, 1 to 4 characters
          --manufacturer M  the manufacturer code, 4 characters (default: Demo)
          --dir DIR         where to create the package folder (default: .)
          --sdk PATH        the SDK to build against, written into Package.swift relative to the
                            package's folder: an installed SDK (PREFIX/share/auhost/sdk) or an
                            AUHost checkout

        The generated Package.swift builds against the SDK in AUHOST_SDK when that is set at
        build time, else against the --sdk PATH, else against the SDK `make install` put next
        to this auhost (PREFIX/share/auhost/sdk; \(installedSDKDefault) by default). It
        never holds the absolute path of the checkout auhost was built from: without --sdk and
        an installed SDK, build with AUHOST_SDK set (the next steps printed say how).

        """

    static let supportedTypes: [String: String] = [
        "aufx": "effect", "aumf": "musicEffect", "augn": "generator", "aumu": "musicDevice", "aumi": "midiProcessor",
    ]

    /// A character a code may hold: printable ASCII, no space, and nothing that would end
    /// or escape the Swift string literal or the shell quotes the code is written into.
    static func isCodeCharacter(_ byte: UInt8) -> Bool {
        byte >= 0x21 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'") && byte != UInt8(ascii: "\\")
    }

    /// Module names a unit's package cannot take: the standard library's and the
    /// toolchain's modules and the SDK's own (compared ignoring case, as targets are).
    static let reservedNames = [
        "Swift", "SwiftShims", "SwiftGlibc", "Glibc", "Musl", "Foundation", "FoundationEssentials", "FoundationInternationalization",
        "FoundationNetworking", "FoundationXML", "CoreFoundation", "Dispatch", "Synchronization", "Observation", "Distributed",
        "RegexBuilder", "Testing", "XCTest", "_Concurrency", "_StringProcessing", "AUPluginSDK", "CAUPluginABI",
    ]

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let type = try arguments.option("--type") ?? ""
        let subtype = try arguments.option("--subtype") ?? ""
        let manufacturer = try arguments.option("--manufacturer") ?? "Demo"
        let directory = try arguments.option("--dir") ?? FileManager.default.currentDirectoryPath
        let explicitSDK = try arguments.option("--sdk")
        let unitName = try arguments.finish(positionals: 1...1, names: "a NAME")[0]

        guard unitName.range(of: "^[A-Za-z][A-Za-z0-9_]*$", options: .regularExpression) != nil else {
            throw .usage("NAME must start with a letter and hold only letters, digits and _ (it names a Swift module), not '\(unitName)'", command: name)
        }
        guard unitName.count <= 64 else {
            throw .usage("NAME is \(unitName.count) characters long; expected at most 64", command: name)
        }
        if let taken = reservedNames.first(where: { $0.lowercased() == unitName.lowercased() }) {
            throw .usage("NAME '\(unitName)' is taken by the module \(taken) that the unit's package builds with; choose another name", command: name)
        }
        guard supportedTypes[type] != nil else {
            throw .usage("--type takes aufx, aumf, augn, aumu or aumi, not '\(type)'", command: name)
        }
        guard (1...4).contains(subtype.utf8.count), subtype.utf8.allSatisfy(Self.isCodeCharacter) else {
            throw .usage("--subtype takes 1 to 4 printable ASCII characters other than quotes and backslash, not '\(subtype)'", command: name)
        }
        guard manufacturer.utf8.count == 4, manufacturer.utf8.allSatisfy(Self.isCodeCharacter) else {
            throw .usage("--manufacturer takes 4 printable ASCII characters other than quotes and backslash, not '\(manufacturer)'", command: name)
        }
        guard let sdk = sdkPath(explicit: explicitSDK) else {
            throw CLIError("cannot find the AUHost SDK to build against", hint: "pass --sdk PATH (an installed SDK, PREFIX/share/auhost/sdk, or an AUHost checkout), set AUHOST_SDK, or run `make install`")
        }
        switch AtomicFile.NodeKind(path: directory) {
        case .folder, .missing: break
        case let kind: throw CLIError("--dir '\(directory)' is \(kind), not a folder; expected the folder to create the package in")
        }
        let folder = URL(fileURLWithPath: directory).standardizedFileURL.appendingPathComponent(unitName)
        if folder.path.hasPrefix(sdk.path + "/") {
            throw CLIError("\(folder.path) is inside the AUHost SDK at \(sdk.path); create the unit outside it", hint: "pass --dir with a folder elsewhere")
        }
        let installed = installedSDK()
        let fallback = explicitSDK == nil ? installed.path : relativePath(to: sdk, from: folder)
        // The SDK the package falls back to is the one checked here, or AUHOST_SDK must name it.
        let needsEnvironment = explicitSDK == nil && installed != sdk
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: folder.path), !contents.isEmpty {
            throw CLIError("\(folder.path) already exists and is not empty; choose another NAME or --dir")
        }
        let files = UnitTemplate(
            name: unitName, type: type, subtype: subtype, manufacturer: manufacturer, sdkFallback: fallback).files()
        do {
            for (path, text) in files {
                let file = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
        } catch {
            throw CLIError("cannot write the package at \(folder.path): \(error.localizedDescription)")
        }
        let paddedSubtype = subtype.padding(toLength: 4, withPad: " ", startingAt: 0)
        context.output.line("created \(folder.path) (\(type):\(paddedSubtype):\(manufacturer), against AUPluginSDK in \(sdk.path))")
        context.output.line("next:")
        context.output.line("  cd \(folder.path) && \(needsEnvironment ? "AUHOST_SDK=\(shellQuoted(sdk.path)) " : "")swift build")
        context.output.line("  mkdir -p ~/.local/lib/auhost/plugins && cp .build/debug/lib\(unitName).so ~/.local/lib/auhost/plugins/")
        context.output.line("  auhost info '\(type):\(paddedSubtype):\(manufacturer)'")
        context.output.line("  swift test   (runs 'auhost validate' on the unit: docs/VALIDATE.md)")
        return 0
    }

    /// Where `make install` with its default prefix puts the SDK.
    static let installedSDKDefault = "/usr/local/share/auhost/sdk"

    /// The SDK installed with this auhost (`PREFIX/share/auhost/sdk` when it runs from
    /// `PREFIX/bin`), else the default prefix's; it may not exist.
    static func installedSDK() -> URL {
        URL(fileURLWithPath: PluginSearchPath.installPrefix().map { $0 + "/share/auhost/sdk" } ?? installedSDKDefault).standardizedFileURL
    }

    /// A folder whose Package.swift offers the AUPluginSDK product: an installed SDK or a checkout.
    static func isSDK(_ url: URL) -> Bool {
        guard let manifest = try? String(contentsOf: url.appendingPathComponent("Package.swift"), encoding: .utf8) else { return false }
        return manifest.contains("\"AUPluginSDK\"")
    }

    /// The SDK folder: --sdk, AUHOST_SDK, the SDK installed with this auhost, the checkout
    /// above the running executable, the checkout this file was compiled from, or the SDK
    /// installed with the default prefix.
    static func sdkPath(explicit: String?) -> URL? {
        if let explicit { return isSDK(URL(fileURLWithPath: explicit)) ? URL(fileURLWithPath: explicit).standardizedFileURL : nil }
        if let environment = ProcessInfo.processInfo.environment["AUHOST_SDK"], isSDK(URL(fileURLWithPath: environment)) {
            return URL(fileURLWithPath: environment).standardizedFileURL
        }
        var candidates: [URL] = []
        if let prefix = PluginSearchPath.installPrefix() { candidates.append(URL(fileURLWithPath: prefix + "/share/auhost/sdk")) }
        if let executable = PluginSearchPath.executableFolder() {
            var folder = URL(fileURLWithPath: executable)
            while folder.path != "/" {
                candidates.append(folder)
                folder.deleteLastPathComponent()
            }
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent())
        candidates.append(URL(fileURLWithPath: installedSDKDefault))
        return candidates.first(where: isSDK)?.standardizedFileURL
    }

    /// `target` as a path from `folder` (both absolute): `../../sdk`.
    static func relativePath(to target: URL, from folder: URL) -> String {
        let to = target.standardizedFileURL.pathComponents, from = folder.standardizedFileURL.pathComponents
        var common = 0
        while common < min(to.count, from.count), to[common] == from[common] { common += 1 }
        let path = (Array(repeating: "..", count: from.count - common) + to[common...]).joined(separator: "/")
        return path.isEmpty ? "." : path
    }

    /// `text` in single quotes for a shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
