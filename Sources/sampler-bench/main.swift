// sampler-bench: the tool of scripts/bench-sampler.sh (docs/BENCHMARKS.md, "The sampler
// against fluidsynth").
//
//   sampler-bench song PATH [--seed N]   write the General MIDI song at PATH (seed 17 unless
//                                        given; the same bytes every time; Song.swift)
//   sampler-bench compare A.wav B.wav    how far two renders of it agree (Compare.swift)
//   sampler-bench seconds FILE           an audio file's length in seconds

import AUFiles
import Foundation

/// Writes `text` to standard error and exits with `status`.
func fail(_ text: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data(("sampler-bench: " + text + "\n").utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("song", 2), ("song", 4):
    let seed = arguments.count == 4 ? (arguments[2] == "--seed" ? UInt64(arguments[3]) : nil) : 17
    guard let seed else { fail("usage: sampler-bench song PATH [--seed N] (N a whole number)", status: 64) }
    do {
        try makeSong(seed: seed).write(to: arguments[1], overwrite: true)
    } catch {
        fail("\(error)")
    }
case ("compare", 3):
    do {
        print(try Comparison(arguments[1], arguments[2]).report)
    } catch {
        fail("\(error)")
    }
case ("seconds", 2):
    do {
        print(try AudioFileReader(path: arguments[1]).info.duration)
    } catch {
        fail("\(error)")
    }
default:
    fail("usage: sampler-bench song PATH [--seed N] | compare A.wav B.wav | seconds FILE", status: 64)
}
