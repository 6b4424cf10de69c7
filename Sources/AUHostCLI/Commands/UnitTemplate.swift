import Foundation

/// The files of a scaffolded unit package.
struct UnitTemplate {
    var name: String
    var type: String
    var subtype: String
    var manufacturer: String
    /// The SDK the package builds against when `AUHOST_SDK` is unset at build time: an
    /// installed SDK's path, or a path relative to the package's folder (never the checkout's
    /// absolute path, so the package builds wherever it and its SDK are).
    var sdkFallback: String

    /// Relative path → contents.
    func files() -> [(String, String)] {
        let isEffect = type == "aufx" || type == "aumf"
        return [
            ("Package.swift", manifest),
            ("Sources/\(name)/\(name)Unit.swift", type == "aumi" ? midiProcessorSource : isEffect ? effectSource : instrumentSource),
            (".gitignore", ".build/\n"),
            (validateTestPath, validateTestSource),
        ]
    }

    private var manifest: String {
        """
        // swift-tools-version:6.0
        // A native AUHost unit: one dynamic library (lib\(name).so) built against AUPluginSDK.
        import PackageDescription

        // The AUHost SDK to build against: AUHOST_SDK when set (an installed SDK or an AUHost
        // checkout; a relative path is taken from this folder), else this one.
        let sdk = Context.environment["AUHOST_SDK"] ?? "\(Self.literal(sdkFallback))"
        // SwiftPM names a package found by path after its folder.
        let sdkPackage = String(sdk.split(separator: "/").last ?? "sdk")

        let package = Package(
            name: "\(name)",
            products: [.library(name: "\(name)", type: .dynamic, targets: ["\(name)"])],
            dependencies: [.package(path: sdk)],
            targets: [
                .target(name: "\(name)", dependencies: [.product(name: "AUPluginSDK", package: sdkPackage)]),
                // `swift test` runs `auhost validate` on the library (docs/VALIDATE.md in AUHost).
                .testTarget(name: "\(name)Tests", dependencies: ["\(name)"]),
            ]
        )

        """
    }

    /// `text` as the inside of a Swift string literal.
    static func literal(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
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
