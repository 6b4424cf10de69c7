// The unit-host child of the bridge (docs/ISOLATION.md): hosts isolated units for an
// `auhost` (or any AUHost library host) over the socket and shared memory it was given.
// `auhost-unit-host --bridge-socket FD --doorbell FD --host-pid PID [--registry lv2|all]`; not meant to be run by hand.
import AUBridge
import AUHost
import Foundation

let arguments = CommandLine.arguments
func argument(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
func number(_ name: String) -> Int32? { argument(name).flatMap { Int32($0) } }
guard let socket = number("--bridge-socket"), let doorbell = number("--doorbell"), let host = number("--host-pid") else {
    FileHandle.standardError.write(Data("auhost-unit-host: expected --bridge-socket FD --doorbell FD --host-pid PID [--registry KIND] (started by a host, not by hand)\n".utf8))
    exit(64)
}
// A batch's files make and free the same plugins one after another: their libraries stay.
PluginLibraryPins.enable()
exit(UnitHostServer.run(
    socket: socket, doorbell: doorbell, hostPID: host,
    preparing: argument("--registry"),
    // An LV2 plugin needs only the LV2 provider (with the host's discovery cache): not every
    // backend's discovery in every child's start-up.
    registry: { kind in
        kind == "lv2" ? ComponentRegistry(providers: [LV2Provider(discoveryCacheFolder: LV2Provider.standardCacheFolder)]) : HostRegistry.make()
    },
    latencyReport: { unit in
        guard let plugin = unit as? LV2Unit else { return .asked }
        return plugin.latencyParameter.map { .parameter($0) } ?? .fixed
    }
) { unit, offline, nominalFrames in
    if let plugin = unit as? LV2Unit {
        plugin.renderMode = offline ? .offline : .live
        plugin.nominalBlockLength = nominalFrames
    }
})
