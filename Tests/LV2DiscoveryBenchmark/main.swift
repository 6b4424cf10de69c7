// Times LV2 discovery (a fresh lilv world, every plugin described, codes assigned) and
// prints the figures for docs/BENCHMARKS.md. Run a release build:
//   swift run -c release --scratch-path /tmp/build-lv2-release LV2DiscoveryBenchmark [runs]
import AULV2
import Foundation

let runs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 7 : 7
var times: [Double] = []
var count = 0
for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    let found = LV2Provider(probeCacheFile: nil).discoverComponents()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    count = found.components.count
}
let sorted = times.sorted()
print("LV2 discovery: \(count) plugins, \(runs) runs: median \(String(format: "%.1f", sorted[runs / 2])) ms, min \(String(format: "%.1f", sorted[0])) ms, max \(String(format: "%.1f", sorted[runs - 1])) ms")
