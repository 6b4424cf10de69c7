import AUHost
import Foundation

/// `auhost new-unit NAME --type T --subtype S`: scaffolds a native unit package outside the
/// repository — a `Package.swift` with one dynamic library depending on this checkout's
/// AUPluginSDK, and a unit source to start from — that builds with `swift build` and loads.
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
          --sdk PATH        the AUHost package to build against (default: AUHOST_SDK_PATH, else
                            the checkout this auhost was built from)

        """

    static let supportedTypes: [String: String] = [
        "aufx": "effect", "aumf": "musicEffect", "augn": "generator", "aumu": "musicDevice", "aumi": "midiProcessor",
    ]

    /// A character a code may hold: printable ASCII, no space, and nothing that would end
    /// or escape the Swift string literal or the shell quotes the code is written into.
    static func isCodeCharacter(_ byte: UInt8) -> Bool {
        byte >= 0x21 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'") && byte != UInt8(ascii: "\\")
    }

    static func run(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let type = try arguments.option("--type") ?? ""
        let subtype = try arguments.option("--subtype") ?? ""
        let manufacturer = try arguments.option("--manufacturer") ?? "Demo"
        let directory = try arguments.option("--dir") ?? FileManager.default.currentDirectoryPath
        let explicitSDK = try arguments.option("--sdk")
        let unitName = try arguments.finish(positionals: 1...1, names: "a NAME")[0]

        guard unitName.range(of: "^[A-Za-z][A-Za-z0-9_]{0,63}$", options: .regularExpression) != nil else {
            throw .usage("NAME must start with a letter and hold only letters, digits and _ (it names a Swift module), not '\(unitName)'", command: name)
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
            throw CLIError("cannot find the AUHost package to build against", hint: "pass --sdk PATH (the folder with AUHost's Package.swift) or set AUHOST_SDK_PATH")
        }
        let folder = URL(fileURLWithPath: directory).standardizedFileURL.appendingPathComponent(unitName)
        if folder.path.hasPrefix(sdk.path + "/") {
            throw CLIError("\(folder.path) is inside the AUHost package at \(sdk.path); create the unit outside it", hint: "pass --dir with a folder elsewhere")
        }
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: folder.path), !contents.isEmpty {
            throw CLIError("\(folder.path) already exists and is not empty; choose another NAME or --dir")
        }
        let files = UnitTemplate(
            name: unitName, type: type, subtype: subtype, manufacturer: manufacturer, sdk: sdk).files()
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
        context.output.line("  cd \(folder.path) && swift build")
        context.output.line("  mkdir -p ~/.local/lib/auhost/plugins && cp .build/debug/lib\(unitName).so ~/.local/lib/auhost/plugins/")
        context.output.line("  auhost info '\(type):\(paddedSubtype):\(manufacturer)'")
        return 0
    }

    /// The AUHost package folder: --sdk, AUHOST_SDK_PATH, the checkout above the running
    /// executable, or the checkout this file was compiled from.
    static func sdkPath(explicit: String?) -> URL? {
        func isSDK(_ url: URL) -> Bool {
            guard let manifest = try? String(contentsOf: url.appendingPathComponent("Package.swift"), encoding: .utf8) else { return false }
            return manifest.contains("\"AUPluginSDK\"")
        }
        if let explicit { return isSDK(URL(fileURLWithPath: explicit)) ? URL(fileURLWithPath: explicit).standardizedFileURL : nil }
        if let environment = ProcessInfo.processInfo.environment["AUHOST_SDK_PATH"], isSDK(URL(fileURLWithPath: environment)) {
            return URL(fileURLWithPath: environment).standardizedFileURL
        }
        var candidates: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
            while folder.path != "/" {
                candidates.append(folder)
                folder.deleteLastPathComponent()
            }
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent())
        return candidates.first(where: isSDK)?.standardizedFileURL
    }
}

/// The files of a scaffolded unit package.
struct UnitTemplate {
    var name: String
    var type: String
    var subtype: String
    var manufacturer: String
    var sdk: URL

    /// Relative path → contents.
    func files() -> [(String, String)] {
        let isEffect = type == "aufx" || type == "aumf"
        return [
            ("Package.swift", manifest),
            ("Sources/\(name)/\(name)Unit.swift", type == "aumi" ? midiProcessorSource : isEffect ? effectSource : instrumentSource),
            (".gitignore", ".build/\n"),
        ]
    }

    private var manifest: String {
        """
        // swift-tools-version:6.0
        // A native AUHost unit: one dynamic library (lib\(name).so) built against AUPluginSDK.
        import PackageDescription

        let package = Package(
            name: "\(name)",
            products: [.library(name: "\(name)", type: .dynamic, targets: ["\(name)"])],
            dependencies: [.package(path: "\(sdk.path)")],
            targets: [
                .target(name: "\(name)", dependencies: [.product(name: "AUPluginSDK", package: "\(sdk.lastPathComponent)")]),
            ]
        )

        """
    }

    private var descriptor: String {
        let inputs = type == "aufx" || type == "aumf" ? "[2]" : "[]"
        let outputs = type == "aumi" ? "[], sendsMIDI: true" : "[2]"
        return """
            static let descriptor = UnitDescriptor(
                    type: "\(type)", subtype: "\(subtype)", manufacturer: "\(manufacturer)", name: "\(name)",
                    manufacturerName: "\(manufacturer)", version: "0.1.0", inputs: \(inputs), outputs: \(outputs))
            """
    }

    private var effectSource: String {
        """
        import AUPluginSDK

        /// \(type):\(subtype):\(manufacturer) — a gain to start from. Replace `process` with your DSP.
        /// - Thread: [control] for set-up; `process` on the render thread (no allocation, no locks, no print).
        final class \(name)Unit: PluginUnit {
            \(descriptor)

            static let parameters = [
                PluginParameterInfo(id: 0, identifier: "gain", name: "Gain", unit: .decibels, range: -60...12, default: 0),
            ]

            private var gain = Smoother(value: 1)

            init() {}

            func prepare(_ setup: RenderSetup) throws(PluginError) {
                gain.configure(time: 0.02, sampleRate: setup.sampleRate)
                gain.snap()
            }

            func setParameter(_ id: UInt32, value: Float) {
                if id == 0 { gain.target = decibelsToGain(value) }
            }

            func process(_ block: AudioBlock) {
                let channels = min(block.inputChannelCount(), block.outputChannelCount())
                for frame in 0..<block.frameCount {
                    let value = gain.next()
                    for channel in 0..<channels { block.output(channel)[frame] = block.input(channel)[frame] * value }
                }
            }
        }

        @_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(\(name)Unit.self) }

        """
    }

    private var midiProcessorSource: String {
        """
        import AUPluginSDK

        /// \(type):\(subtype):\(manufacturer) — a MIDI processor to start from: it sends on every message
        /// it receives, at the frame it came. Transform them in `process`.
        /// - Thread: [control] for set-up; `handleMIDI` and `process` on the render thread.
        final class \(name)Unit: PluginUnit {
            \(descriptor)

            static let parameters: [PluginParameterInfo] = []

            /// The messages received since the last slice, in fixed storage (the SDK calls
            /// `handleMIDI` at a message's frame, then `process` for the slice starting there).
            private var received = [PluginMIDIEvent](repeating: PluginMIDIEvent(status: 0, data1: 0, data2: 0), count: 256)
            private var receivedCount = 0

            init() {}

            func setParameter(_ id: UInt32, value: Float) {}

            func handleMIDI(_ message: PluginMIDIEvent) {
                guard receivedCount < received.count else { return }
                received[receivedCount] = message
                receivedCount += 1
            }

            func process(_ block: AudioBlock) {
                for index in 0..<receivedCount { block.sendMIDI(received[index]) }
                receivedCount = 0
            }
        }

        @_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(\(name)Unit.self) }

        """
    }

    private var instrumentSource: String {
        """
        import AUPluginSDK
        import Glibc

        /// \(type):\(subtype):\(manufacturer) — a one-voice sine to start from\(type == "aumu" ? ", played by MIDI notes" : "").
        /// - Thread: [control] for set-up; `process` and `handleMIDI` on the render thread.
        final class \(name)Unit: PluginUnit {
            \(descriptor)

            static let parameters = [
                PluginParameterInfo(id: 0, identifier: "level", name: "Level", unit: .decibels, range: -60...0, default: -12),
            ]

            private var oscillator = Oscillator(waveform: .sine)
            private var level = Smoother(value: 0)
            private var sampleRate = 48_000.0
            private var isSounding = \(type == "aumu" ? "false" : "true")
            private var note: UInt8 = 69

            init() {}

            func prepare(_ setup: RenderSetup) throws(PluginError) {
                sampleRate = setup.sampleRate
                level.configure(time: 0.005, sampleRate: sampleRate)
                oscillator.setFrequency(440, sampleRate: sampleRate)
            }

            func setParameter(_ id: UInt32, value: Float) {
                if id == 0 { level.target = decibelsToGain(value) }
            }

            func handleMIDI(_ message: PluginMIDIEvent) {
                if message.isNoteOn {
                    note = message.data1
                    oscillator.setFrequency(440 * pow(2, (Double(note) - 69) / 12), sampleRate: sampleRate)
                    isSounding = true
                } else if message.isNoteOff && message.data1 == note {
                    isSounding = false
                }
            }

            func process(_ block: AudioBlock) {
                for frame in 0..<block.frameCount {
                    let sample = isSounding ? oscillator.next() * level.next() : 0
                    for channel in 0..<block.outputChannelCount() { block.output(channel)[frame] = sample }
                }
            }
        }

        @_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(\(name)Unit.self) }

        """
    }
}
