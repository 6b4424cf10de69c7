// swift-tools-version:6.0
//
// AUHost: Core Audio's Audio Unit hosting model on Linux.
// No outside packages: the standard library, Foundation, Dispatch, Synchronization,
// Swift Testing, and C libraries from Debian through system-library targets.
//
// Each section below belongs to one layer (docs/ARCHITECTURE.md, "Modules").

import PackageDescription

/// A C library from a Debian package, found through pkg-config.
func systemLibrary(_ name: String, pkgConfig: String, debian: String) -> Target {
    .systemLibrary(
        name: name,
        path: "Sources/\(name)",
        pkgConfig: pkgConfig,
        providers: [.apt([debian])]
    )
}

// MARK: - C libraries and the C support shim

let cTargets: [Target] = [
    systemLibrary("CLilv", pkgConfig: "lilv-0", debian: "liblilv-dev"),
    systemLibrary("CJack", pkgConfig: "jack", debian: "libjack-jackd2-dev"),
    systemLibrary("CSndfile", pkgConfig: "sndfile", debian: "libsndfile1-dev"),
    systemLibrary("CSamplerate", pkgConfig: "samplerate", debian: "libsamplerate0-dev"),
    // What Swift cannot do by itself: thread-local render marks, FTZ/DAZ, variadic wrappers.
    .target(name: "CAUSupport", path: "Sources/CAUSupport"),
]

// MARK: - Core model, engine, CLI

let coreTargets: [Target] = [
    // The Audio Unit model and the real-time primitives. Imports no C library but CAUSupport.
    .target(name: "AUCore", dependencies: ["CAUSupport"]),
    // Built-in units, the graph and the renderer.
    .target(name: "AUEngine", dependencies: ["AUCore", "CSamplerate"]),
    // The umbrella library a host application imports: re-exports every layer and adds what
    // assembles a host (the registry over every backend, chain presets as graphs, the
    // offline render driver, the live driver).
    .target(name: "AUHost", dependencies: ["AUCore", "AUEngine", "AULV2", "AUNative", "AUPresets", "AUFiles", "AUJACK", "AUMIDI", "AUMusicPlayer", "AUSampler", "AUBridge", "AUAppleUnits"]),
    // Plugins out of process (docs/ISOLATION.md): the proxy unit, the shared-memory cycle,
    // the child's server; and the child executable, `auhost-unit-host`.
    .target(name: "AUBridge", dependencies: ["AUCore", "CAUSupport"]),
    .executableTarget(name: "auhost-unit-host", dependencies: ["AUBridge", "AUHost"]),
    // The `auhost` tool's arguments, output and commands, over the AUHost library.
    .target(name: "AUHostCLI", dependencies: ["AUHost", "AUValidate"]),
    // `auhost validate`'s tests (auval's and pluginval's) and their child-process runner (docs/VALIDATE.md).
    .target(name: "AUValidate", dependencies: ["AUCore", "AUEngine", "AUFiles", "AUJACK", "AUAppleUnits"]),
    .executableTarget(name: "auhost", dependencies: ["AUHostCLI"]),
    .testTarget(name: "AUCoreTests", dependencies: ["AUCore", "AUEngine", "AUTestSupport"]),
    .testTarget(name: "AUHostTests", dependencies: ["AUHost", "AUTestSupport"]),
    .testTarget(name: "AUHostCLITests", dependencies: ["AUHostCLI", "AUTestSupport"]),
    .testTarget(name: "AUEngineTests", dependencies: ["AUEngine", "AUCore", "AUTestSupport"]),
    // An LD_PRELOAD shim counting allocations, retains and locks on marked threads (the AllocCounter product).
    .target(name: "CAllocCounter", path: "Sources/CAllocCounter"),
    // Renders a graph under the shim and reports what the render thread allocated (run by AUEngineTests).
    .executableTarget(name: "alloc-check", dependencies: ["AUEngine", "AUCore", "AULV2", "AUNative", "AUMIDI", "AUMusicPlayer", "AUBridge", "AUHost", "CAUSupport"], path: "Sources/alloc-check"),
    // The benchmark baseline: LV2 plugins in series called by a plain C loop through lilv,
    // in memory or over files. Linked by lv2-chain-bench alone.
    .target(name: "CLV2ChainLoop", dependencies: ["CLilv", "CSndfile"], path: "Sources/CLV2ChainLoop", linkerSettings: [.linkedLibrary("m")]),
    // The reference chain through that loop alone, in memory or over a file; `--serve` is the
    // C side of `auhost bench graph`, timed on request in this process (CAUSupport: FTZ/DAZ).
    .executableTarget(name: "lv2-chain-bench", dependencies: ["CLV2ChainLoop", "CAUSupport"], path: "Sources/lv2-chain-bench"),
]

let coreProducts: [Product] = [
    .library(name: "AllocCounter", type: .dynamic, targets: ["CAllocCounter"]),
]

// MARK: - LV2 backend

let lv2Targets: [Target] = [
    .target(name: "AULV2", dependencies: ["AUCore", "CLilv", "CAUSupport"]),
    .testTarget(name: "AULV2Tests", dependencies: ["AULV2", "AUCore", "AUEngine", "AUTestSupport"]),
    // Fixture plugins for the failure modes (bad Turtle, missing binary, missing feature,
    // NULL instance, crash in run); the tests copy the .so into temporary bundles.
    // bundle/: the fixtures' Turtle, which the Swift and the Python tests fill in (AUTestSupport's LV2FixtureBundle.swift, python/tests/conftest.py).
    .target(name: "LV2Fixtures", path: "Tests/LV2Fixtures", exclude: ["bundle"]),
    // Times discovery for docs/BENCHMARKS.md (release builds only).
    .executableTarget(name: "LV2DiscoveryBenchmark", dependencies: ["AULV2"], path: "Tests/LV2DiscoveryBenchmark"),
]

let lv2Products: [Product] = [
    .library(name: "LV2Fixtures", type: .dynamic, targets: ["LV2Fixtures"]),
]

// MARK: - Native units: the C ABI, the SDK, the loader, the units in Plugins/

/// The units in Plugins/<Name>: each a dynamic library `libAUHost<Name>.so` built against
/// the SDK only (never AUCore), as a third-party unit would be. `swift build` builds them.
let nativeUnits = ["Gain", "Delay", "ParametricEQ", "Compressor", "Reverb", "ToneGenerator", "Synth", "Arpeggiator"]

let nativeTargets: [Target] = [
    // Header only: the versioned C ABI between the host and a native unit library.
    .target(name: "CAUPluginABI", path: "Sources/CAUPluginABI"),
    // Vector loops for native units, compiled for AVX2 and the baseline (AUPluginSDK's DSP).
    .target(name: "CAUPluginDSP", path: "Sources/CAUPluginDSP"),
    // What a unit author imports: a Swift protocol and the export thunks to the C ABI.
    .target(name: "AUPluginSDK", dependencies: ["CAUPluginABI", "CAUPluginDSP"]),
    // The loader: dlopen, ABI check, NativeProvider and NativeUnit.
    .target(name: "AUNative", dependencies: ["AUCore", "CAUPluginABI"]),
    .testTarget(name: "AUNativeTests", dependencies: ["AUNative", "AUCore", "AUHostCLI", "AUTestSupport"]),
] + nativeUnits.map { .target(name: "AUHost\($0)", dependencies: ["AUPluginSDK"], path: "Plugins/\($0)") }

let nativeProducts: [Product] = [.library(name: "AUPluginSDK", targets: ["AUPluginSDK"])]
    + nativeUnits.map { .library(name: "AUHost\($0)", type: .dynamic, targets: ["AUHost\($0)"]) }

// MARK: - JACK: the live I/O unit

let jackTargets: [Target] = [
    .target(name: "CAUJack", dependencies: ["CJack"], path: "Sources/CAUJack", linkerSettings: [.linkedLibrary("jack")]),
    .target(name: "AUJACK", dependencies: ["AUCore", "AUEngine", "CJack", "CAUJack"]),
    .testTarget(name: "AUJACKTests", dependencies: ["AUJACK", "AUCore", "AUEngine", "AUTestSupport"]),
    // What the live tests share: a jackd of their own, recordings in plain memory.
    .target(name: "AUTestSupport", dependencies: ["AUJACK", "CJack"], path: "Tests/AUTestSupport"),
]

// MARK: - Audio files: libsndfile reading and atomic writing, libsamplerate, levels

let fileTargets: [Target] = [
    .target(name: "AUFiles", dependencies: ["AUCore", "CSndfile", "CSamplerate", "CAUSupport"]),
    .testTarget(name: "AUFilesTests", dependencies: ["AUFiles", "AUCore", "AUTestSupport"]),
]

// MARK: - Chain preset files

let presetTargets: [Target] = [
    .target(name: "AUPresets", dependencies: ["AUCore"]),
    .testTarget(name: "AUPresetsTests", dependencies: ["AUPresets", "AUCore", "AUEngine", "AUTestSupport"]),
]

// MARK: - MIDI: Standard MIDI Files, MusicSequence, MusicTrack, tempo and time-signature maps

let midiTargets: [Target] = [
    // The model on AUCore alone: sequences, tracks, maps, files, MIDI clock.
    .target(name: "AUMIDI", dependencies: ["AUCore"]),
    // Core Audio's MusicPlayer: plays the model into a graph (the engine's MIDIScheduler).
    .target(name: "AUMusicPlayer", dependencies: ["AUCore", "AUMIDI", "AUEngine"]),
    .testTarget(name: "AUMIDITests", dependencies: ["AUMIDI", "AUTestSupport"]),
    .testTarget(name: "AUMusicPlayerTests", dependencies: ["AUMusicPlayer", "AUMIDI", "AUEngine", "AUTestSupport"]),
    // Times reading a one-million-event SMF (docs/BENCHMARKS.md; scripts/mido-read.py reads the same file).
    .executableTarget(name: "midi-read-bench", dependencies: ["AUMIDI"], path: "Sources/midi-read-bench"),
]

// MARK: - The sampler: SoundFont banks through libfluidsynth (docs/SAMPLER.md)

let samplerTargets: [Target] = [
    // FluidSynth's header only (in /usr/include: no pkg-config, whose flags would link it).
    .systemLibrary(name: "CFluidSynth", path: "Sources/CFluidSynth", providers: [.apt(["libfluidsynth-dev"])]),
    // The library is opened when the first sampler is made, not linked: loading its 64
    // libraries cost every command about 6.5 ms before main (docs/BENCHMARKS.md, issue 32).
    .target(name: "CFluidSynthLoader", path: "Sources/CFluidSynthLoader"),
    // `aumu:samp:AUHs`, Core Audio's AUSampler: SF2 and SF3 banks, a General MIDI module or one instrument.
    // GOMP_parallel: the sampler's one-thread OpenMP regions without libgomp's allocation (OpenMPRegion.swift).
    .target(name: "AUSampler", dependencies: ["AUCore", "CFluidSynth", "CFluidSynthLoader"], linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=GOMP_parallel"])]),
    .testTarget(name: "AUSamplerTests", dependencies: ["AUSampler", "AUCore", "AUFiles", "AUMIDI", "AUTestSupport"]),
    // scripts/bench-sampler.sh's tool: writes its General MIDI song (fixed seed) and compares two renders.
    .executableTarget(name: "sampler-bench", dependencies: ["AUCore", "AUMIDI", "AUFiles"], path: "Sources/sampler-bench"),
]

// MARK: - AudioToolbox: Apple's C API and Swift module over AUHost (docs/AUDIOTOOLBOX.md)

let audioToolboxTargets: [Target] = [
    // Apple's headers under Apple's names (include/ is a link to its include folder).
    .target(name: "CAudioToolbox", path: "Sources/CAudioToolbox"),
    // Apple's units by Apple's descriptions (`appl`), for AudioToolbox's registry and AUHost's:
    // the filters and dynamics, AUDelay, AUReverb2, AUNBandEQ, the file and slice players, the synths,
    // the device outputs (on JACK, a file or nothing).
    .target(name: "AUAppleUnits", dependencies: ["AUCore", "AUEngine", "AUFiles", "AUSampler", "CAudioToolbox", "AUJACK"]),
    // The C functions (@_cdecl) over the engine, and the Swift overlays: libAudioToolbox.so.
    .target(name: "AudioToolbox", dependencies: ["CAudioToolbox", "AUCore", "AUEngine", "AUJACK", "AUFiles", "AUMIDI", "AUMusicPlayer", "AUSampler", "AUAppleUnits", "AULV2", "AUBridge"]),
    .testTarget(name: "AudioToolboxTests", dependencies: ["AudioToolbox", "AUTestSupport", "AUFiles", "AUCore"]),
]

// MARK: - libauhost: the small C API of include/auhost.h, under the Python package (docs/PYTHON.md)

let cAPITargets: [Target] = [
    // @_cdecl functions over AUHost's ChainProcessor and audio files: libauhost.so. Never
    // unloaded (`-z nodelete`): its threads (a unit-host child's monitor, a render worker)
    // may still run when a binding's handle goes (cffi closes it as Python exits).
    .target(name: "AUHostC", dependencies: ["AUHost"], linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete"])]),
]

let package = Package(
    name: "AUHost",
    products: [
        .executable(name: "auhost", targets: ["auhost"]),
        .executable(name: "auhost-unit-host", targets: ["auhost-unit-host"]),
        // `import AUHost` is all a host application writes; each layer is a product too.
        .library(name: "AUHost", targets: ["AUHost"]),
    ] + ["AUCore", "AUEngine", "AULV2", "AUNative", "AUJACK", "AUFiles", "AUPresets", "AUMIDI", "AUMusicPlayer", "AUSampler", "AUAppleUnits"].map {
        .library(name: $0, targets: [$0])
    } + coreProducts + nativeProducts + lv2Products
      + [.library(name: "AudioToolbox", type: .dynamic, targets: ["AudioToolbox"])]
      + [.library(name: "AUHostC", type: .dynamic, targets: ["AUHostC"])],
    targets: cTargets + coreTargets + lv2Targets + nativeTargets + presetTargets + jackTargets + fileTargets + midiTargets + samplerTargets
      + audioToolboxTargets + cAPITargets
)
