import AUCore
import CLilv
import Foundation
import Glibc
import Synchronization

/// Whether a unit renders live (a JACK callback: worker thread) or offline (immediate
/// worker). Both pass `lv2:isLive`: AUHost runs a plugin's cycles back to back and never
/// caches its output, live or offline, which is all the feature asks of a host.
/// - Thread: [any]
public enum LV2RenderMode: Sendable {
    case live
    case offline
}

/// The host features one instance gets (docs/LV2.md, "Host features"), owned together so
/// that every pointer handed to the plugin lives exactly as long as the instance:
/// urid map / unmap, options, buf-size, worker schedule, log, state makePath / mapPath /
/// freePath, and isLive.
/// - Thread: [control]; the C callbacks run on the threads the LV2 specs allow.
final class LV2HostFeatures: @unchecked Sendable {
    /// Features whose URIs a plugin may require that the host satisfies by how it behaves
    /// (it never processes in place, splits cycles into powers of two when asked, bounds
    /// every block by MaximumFramesPerSlice, gives fixed blocks through the graph's block
    /// adapter) or that concern the plugin alone.
    static let satisfiedByBehaviour: Set<String> = [
        LV2URI.coreHardRTCapable, LV2URI.coreInPlaceBroken, LV2URI.bufSizeBoundedBlockLength,
        LV2URI.bufSizePowerOf2BlockLength, LV2URI.bufSizeFixedBlockLength, LV2URI.bufSizeCoarseBlockLength, LV2URI.stateThreadSafeRestore,
        LV2URI.stateLoadDefaultState,
    ]

    /// Every feature URI the host provides, live and offline alike.
    static let provided = Set([
        LV2URI.uridMap, LV2URI.uridUnmap, LV2URI.optionsOptions, LV2URI.workerSchedule, LV2URI.logLog,
        LV2URI.stateMakePath, LV2URI.stateMapPath, LV2URI.stateFreePath, LV2URI.coreIsLive,
    ]).union(satisfiedByBehaviour)

    /// The required features the host lacks, in the plugin's order.
    static func missing(_ required: [String]) -> [String] {
        required.filter { !provided.contains($0) }
    }

    /// The null-terminated `const LV2_Feature* const*` for `instantiate` and state calls.
    let array: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
    let worker: LV2Worker
    let log: LV2Log
    /// Where makePath creates files (made on first use, removed with the features).
    let scratchDirectory: String
    /// Every instance's scratch folder is this and a number (one UUID per process, not one per instance).
    private static let scratchBase = NSTemporaryDirectory() + "auhost-lv2-\(getpid())-\(UUID().uuidString.prefix(8))"
    private static let scratchCount = Atomic<Int>(0)
    private var features: [UnsafeMutablePointer<LV2_Feature>] = []
    private var uriCopies: [UnsafeMutablePointer<CChar>] = []
    private let options: UnsafeMutablePointer<LV2_Options_Option>
    private let optionValues: UnsafeMutablePointer<Int32>
    private let sampleRateValue: UnsafeMutablePointer<Float>
    private let makePath: UnsafeMutablePointer<LV2_State_Make_Path>
    private let mapPath: UnsafeMutablePointer<LV2_State_Map_Path>
    private let freePath: UnsafeMutablePointer<LV2_State_Free_Path>

    /// - Parameters:
    ///   - maximumFrames: the largest block `run()` will see (MaximumFramesPerSlice).
    ///   - nominalFrames: the block length `run()` usually sees (a live host's period).
    ///   - sequenceSize: the byte size of every atom port buffer.
    ///   - powerOf2: whether `run()` gets only power-of-two blocks (then buf-size:powerOf2BlockLength is passed).
    ///   - fixedBlock: the one block length `run()` gets, when the plugin requires
    ///     buf-size:fixedBlockLength (then the feature is passed and every block-length option is it).
    init(
        urids: URIDMap, pluginURI: String, sampleRate: Double, maximumFrames: Int, nominalFrames: Int, sequenceSize: Int, mode: LV2RenderMode,
        powerOf2: Bool, fixedBlock: Int? = nil, echoLog: Bool
    ) {
        worker = LV2Worker(mode: mode == .live ? .threaded : .immediate)
        log = LV2Log(pluginURI: pluginURI, urids: urids, echoesToStandardError: echoLog)
        scratchDirectory = Self.scratchBase + "-\(Self.scratchCount.add(1, ordering: .relaxed).newValue)"

        sampleRateValue = .allocate(capacity: 1)
        sampleRateValue.initialize(to: Float(sampleRate))
        optionValues = .allocate(capacity: 4)
        let lengths: [Int32] = fixedBlock.map { [Int32($0), Int32($0), Int32($0)] } ?? [1, Int32(maximumFrames), Int32(nominalFrames)]
        optionValues.initialize(from: lengths + [Int32(sequenceSize)], count: 4)
        let intType = urids.map(LV2URI.atomInt)
        let optionList: [(String, UInt32, UnsafeRawPointer, UInt32)] = [
            (LV2URI.parametersSampleRate, urids.map(LV2URI.atomFloat), UnsafeRawPointer(sampleRateValue), 4),
            (LV2URI.bufSizeMinBlockLength, intType, UnsafeRawPointer(optionValues), 4),
            (LV2URI.bufSizeMaxBlockLength, intType, UnsafeRawPointer(optionValues + 1), 4),
            (LV2URI.bufSizeNominalBlockLength, intType, UnsafeRawPointer(optionValues + 2), 4),
            (LV2URI.bufSizeSequenceSize, intType, UnsafeRawPointer(optionValues + 3), 4),
        ]
        options = .allocate(capacity: optionList.count + 1)
        for (index, option) in optionList.enumerated() {
            (options + index).initialize(to: LV2_Options_Option(
                context: LV2_OPTIONS_INSTANCE, subject: 0, key: urids.map(option.0), size: option.3, type: option.1, value: option.2))
        }
        (options + optionList.count).initialize(to: LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0, size: 0, type: 0, value: nil))

        makePath = .allocate(capacity: 1)
        mapPath = .allocate(capacity: 1)
        freePath = .allocate(capacity: 1)
        let handle = UnsafeMutableRawPointer(strdup(scratchDirectory))
        makePath.initialize(to: LV2_State_Make_Path(handle: handle, path: { handle, path in
            guard let handle, let path else { return nil }
            let directory = String(cString: handle.assumingMemoryBound(to: CChar.self))
            let full = directory + "/" + String(cString: path)
            let parent = (full as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            return strdup(full)
        }))
        mapPath.initialize(to: LV2_State_Map_Path(
            handle: handle,
            abstract_path: { handle, absolute in
                guard let handle, let absolute else { return nil }
                let directory = String(cString: handle.assumingMemoryBound(to: CChar.self)) + "/"
                let path = String(cString: absolute)
                return strdup(path.hasPrefix(directory) ? String(path.dropFirst(directory.count)) : path)
            },
            absolute_path: { handle, abstract in
                guard let handle, let abstract else { return nil }
                let path = String(cString: abstract)
                if path.hasPrefix("/") { return strdup(path) }
                return strdup(String(cString: handle.assumingMemoryBound(to: CChar.self)) + "/" + path)
            }))
        freePath.initialize(to: LV2_State_Free_Path(handle: nil, free_path: { _, path in free(path) }))

        var list: [(String, UnsafeMutableRawPointer?)] = [
            (LV2URI.uridMap, UnsafeMutableRawPointer(urids.mapFeatureData)),
            (LV2URI.uridUnmap, UnsafeMutableRawPointer(urids.unmapFeatureData)),
            (LV2URI.optionsOptions, UnsafeMutableRawPointer(options)),
            (LV2URI.bufSizeBoundedBlockLength, nil),
            (LV2URI.workerSchedule, UnsafeMutableRawPointer(worker.scheduleFeatureData)),
            (LV2URI.logLog, log.featureData),
            (LV2URI.stateMakePath, UnsafeMutableRawPointer(makePath)),
            (LV2URI.stateMapPath, UnsafeMutableRawPointer(mapPath)),
            (LV2URI.stateFreePath, UnsafeMutableRawPointer(freePath)),
            (LV2URI.coreIsLive, nil),
        ]
        if powerOf2 { list.append((LV2URI.bufSizePowerOf2BlockLength, nil)) }
        if fixedBlock != nil { list.append((LV2URI.bufSizeFixedBlockLength, nil)) }
        array = .allocate(capacity: list.count + 1)
        for (index, entry) in list.enumerated() {
            let uri = strdup(entry.0)!
            uriCopies.append(uri)
            let feature = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
            feature.initialize(to: LV2_Feature(URI: UnsafePointer(uri), data: entry.1))
            features.append(feature)
            (array + index).initialize(to: UnsafePointer(feature))
        }
        (array + list.count).initialize(to: nil)
    }

    deinit {
        worker.stop()
        free(makePath.pointee.handle)
        for feature in features { feature.deallocate() }
        for uri in uriCopies { free(uri) }
        array.deallocate()
        options.deallocate()
        optionValues.deallocate()
        sampleRateValue.deallocate()
        makePath.deallocate()
        mapPath.deallocate()
        freePath.deallocate()
        if access(scratchDirectory, F_OK) == 0 { try? FileManager.default.removeItem(atPath: scratchDirectory) }
    }

    /// The features array as lilv takes it.
    var pointer: UnsafePointer<UnsafePointer<LV2_Feature>?> { UnsafePointer(array) }
}
