import AUCore
import CAUSupport
import CLilv
import Foundation

// The lilv seam: the files in Sources/AULV2/Lilv are the only ones that name lilv's C
// symbols (`lilv_*`). The rest of AULV2 calls typed Swift: a handle per lilv object, strings
// and numbers copied out at once, no lilv pointer outside this folder.
//
// lilv is not thread-safe, and instantiating or freeing an instance edits the world (its
// list of open plugin libraries), so every call into lilv made here holds the world's lock:
// each wrapper takes it itself (``LV2World/locked(_:)``), never its caller. The render
// thread makes no lilv call: it calls the plugin through the function pointers the instance
// handle gives (``LilvInstanceHandle/descriptor``).

/// One lilv world: the bundles on the LV2 path, loaded all at once or one at a time as
/// their plugins are asked for (``plugin(uri:bundle:)``: a render that found every plugin in
/// the discovery cache reads only its chain's bundles), the interned nodes and the URID map
/// its units share. Units, plugins, nodes and states keep their world alive.
/// - Thread: [control] (never the render thread).
final class LV2World: @unchecked Sendable {
    /// The `LilvWorld*`; used only in this folder, inside ``locked(_:)``.
    let raw: OpaquePointer
    let urids: URIDMap
    let nodes: LV2Nodes
    /// The LV2_PATH this world loaded (nil: the environment's or lilv's default).
    let lv2Path: String?
    /// The bundles whose manifest lilv could not read (their plugins are skipped); empty
    /// until every bundle is loaded.
    private(set) var manifestProblems = LV2TurtleProblems(captured: "")
    /// Whether every bundle on the path is loaded (``loadAllBundles()``).
    private var loadedAll = false
    /// The bundle folders loaded one at a time (``plugin(uri:bundle:)``).
    private var loadedBundles: Set<String> = []
    /// Recursive: a wrapper may call another while holding it.
    private let lock = NSRecursiveLock()

    /// A world for `lv2Path` (a colon-separated list; nil: `LV2_PATH` or lilv's default),
    /// every bundle on it loaded when `loadingAllBundles` (lazily by lilv: only manifests
    /// load here), none otherwise.
    /// - Thread: [control]
    init(lv2Path: String?, loadingAllBundles: Bool = true) {
        // Before any plugin exists: FFTW's planner is process-wide and not thread-safe, and
        // convolving plugins (Guitarix's, through libzita-convolver) plan on threads of their
        // own; two of them in one chain crashed (docs/LV2.md, "FFTW"). Once per process.
        _ = au_fftw_make_planners_thread_safe()
        let world: OpaquePointer = lilv_world_new()
        if let lv2Path {
            let value = lv2Path.withCString { lilv_new_string(world, $0) }
            lilv_world_set_option(world, LILV_OPTION_LV2_PATH, value)
            lilv_node_free(value)
        }
        raw = world
        self.lv2Path = lv2Path
        nodes = LV2Nodes(world: world)
        urids = URIDMap()
        if loadingAllBundles { loadAllBundles() }
    }

    /// Loads every bundle on the path (once). lilv and serd print a bundle's Turtle errors
    /// on standard error: taken and kept in ``manifestProblems``, one problem per bundle
    /// (docs/LV2.md, "Broken bundles"). When bundles were loaded one at a time before, only
    /// the others are loaded: lilv would reload those, and reloading a plugin frees the
    /// ports its units still use (`lilv_plugin_clear`).
    /// - Thread: [control]
    func loadAllBundles() {
        locked {
            guard !loadedAll else { return }
            loadedAll = true
            let loading = StandardErrorCapture.capturing {
                guard !loadedBundles.isEmpty else { return lilv_world_load_all(raw) }
                for folder in LV2DiscoveryCache.pathFolders(lv2Path) {
                    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
                    for name in names.sorted() {
                        var isFolder: ObjCBool = false
                        let bundle = Self.canonicalBundle(folder + "/" + name)
                        guard FileManager.default.fileExists(atPath: bundle, isDirectory: &isFolder), isFolder.boolValue,
                              !loadedBundles.contains(bundle) else { continue }
                        loadBundle(bundle)
                    }
                }
            }
            manifestProblems = LV2TurtleProblems(captured: loading.text)
            manifestProblems.passOnOtherLines()
        }
    }

    /// A bundle folder as this world keeps track of it: symbolic links resolved, with a
    /// trailing slash (as lilv names bundles).
    private static func canonicalBundle(_ path: String) -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return resolved.hasSuffix("/") ? resolved : resolved + "/"
    }

    /// Loads one bundle folder (`lilv_world_load_bundle`) and records it; call holding the lock.
    private func loadBundle(_ bundle: String) {
        loadedBundles.insert(bundle)
        let node = bundle.withCString { lilv_new_file_uri(raw, nil, $0) }
        lilv_world_load_bundle(raw, node)
        lilv_node_free(node)
    }

    /// The plugin `uri`, its bundle (the folder `bundle`) loaded first when this world has
    /// not loaded every bundle; nil when the world has no such plugin.
    /// - Thread: [control]
    func plugin(uri: String, bundle: String?) -> LilvPluginHandle? {
        locked {
            // Discovery read this bundle before: whatever lilv says of it goes to standard
            // error as printed.
            if !loadedAll, let bundle, case let folder = Self.canonicalBundle(bundle), !loadedBundles.contains(folder) {
                loadBundle(folder)
            }
            let uriNode = uri.withCString { lilv_new_uri(raw, $0) }
            defer { lilv_node_free(uriNode) }
            return lilv_plugins_get_by_uri(lilv_world_get_all_plugins(raw), uriNode).map { LilvPluginHandle(world: self, raw: $0) }
        }
    }

    deinit {
        nodes.free()
        lilv_world_free(raw)
    }

    /// Runs `body` holding the world's lock: what every lilv call in this folder is made in.
    /// - Thread: [control] (never the render thread).
    func locked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        RenderThread.assertNotCurrent("LV2World.locked")
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Every plugin the world loaded, in lilv's order.
    /// - Thread: [control]
    var plugins: [LilvPluginHandle] {
        locked {
            var found: [LilvPluginHandle] = []
            let all = lilv_world_get_all_plugins(raw)
            var iterator = lilv_plugins_begin(all)
            while !lilv_plugins_is_end(all, iterator) {
                if let plugin = lilv_plugins_get(all, iterator) { found.append(LilvPluginHandle(world: self, raw: plugin)) }
                iterator = lilv_plugins_next(all, iterator)
            }
            return found
        }
    }

    /// The first value of `predicate` on `subject` in the world's data (`lilv_world_get`).
    /// - Thread: [control]
    func value(of subject: LilvNodeHandle, _ predicate: LilvURINode) -> LilvNodeHandle? {
        locked { LilvNodeHandle(owning: lilv_world_get(raw, subject.raw, predicate.raw, nil), world: self) }
    }

    /// Loads the data of the resource `node` names (a preset's file) into the world.
    /// - Thread: [control]
    func loadResource(_ node: LilvNodeHandle) {
        locked { _ = lilv_world_load_resource(raw, node.raw) }
    }
}
