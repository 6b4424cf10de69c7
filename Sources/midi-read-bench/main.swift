// midi-read-bench: writes a format-1 Standard MIDI File of 1,000,000 events over 16 tracks
// (notes, control changes, pitch bends) and times reading it with AUMIDI.
//
//   midi-read-bench                 write the file into a temporary folder, read it 15 times
//   midi-read-bench --write PATH    only write the file at PATH (for scripts/mido-read.py)
//   midi-read-bench --read PATH     read the file at PATH 15 times
//
// The file is the same every time, so scripts/mido-read.py can read the one written by --write.

import AUMIDI
import Foundation

/// Writes `text` and a newline to standard output.
func emit(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Writes `text` to standard error and exits with status 1.
func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data(("midi-read-bench: " + text + "\n").utf8))
    exit(1)
}

/// 16 tracks of 62,500 file events each: per step a note (on and off), a control change and a
/// pitch bend, a quarter beat apart; plus a tempo track.
func makeSequence() -> MusicSequence {
    var sequence = MusicSequence(division: .ticksPerQuarterNote(480))
    sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 120)
    sequence.tempoTrack.addMetaEvent(at: 0, .timeSignature(
        MIDITimeSignature(numerator: 4, denominatorPower: 2)))
    for trackIndex in 0..<16 {
        var track = MusicTrack()
        let channel = UInt8(trackIndex)
        for step in 0..<15_625 {
            let time = Double(step) * 0.25
            track.addMIDINoteEvent(at: time, MIDINoteMessage(
                channel: channel, note: UInt8(36 + (step * 7 + trackIndex) % 60),
                velocity: UInt8(1 + step % 127), releaseVelocity: 64, duration: 0.2))
            track.addMIDIChannelEvent(at: time + 0.05, .controlChange(
                channel: channel, controller: 1, value: UInt8(step % 128)))
            track.addMIDIChannelEvent(at: time + 0.1, .pitchBend(
                channel: channel, value: UInt16((step * 37) % 16384)))
        }
        sequence.tracks.append(track)
    }
    return sequence
}

func writeFile(at url: URL) {
    do {
        try makeSequence().write(to: url.path, overwrite: true)
    } catch {
        fail("\(error)")
    }
}

func readBenchmark(at url: URL, runs: Int) {
    let clock = ContinuousClock()
    var milliseconds: [Double] = []
    var fileEvents = 0
    for _ in 0..<runs {
        let start = clock.now
        let sequence: MusicSequence
        do {
            sequence = try MusicSequence(contentsOf: url)
        } catch {
            fail("\(error)")
        }
        let elapsed = clock.now - start
        milliseconds.append(Double(elapsed.components.seconds) * 1000
            + Double(elapsed.components.attoseconds) / 1e15)
        // Count file events as mido does messages: a note is a note-on and a note-off.
        fileEvents = ([sequence.tempoTrack] + sequence.tracks).reduce(0) { total, track in
            total + track.events.reduce(0) { count, trackEvent in
                if case .note = trackEvent.event { return count + 2 }
                return count + 1
            }
        }
    }
    milliseconds.sort()
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    emit("AUMIDI read \(url.path): \(size) bytes, \(fileEvents) events (+17 end-of-track)")
    emit(String(format: "AUMIDI %d runs: median %.1f ms, spread %.1f..%.1f ms",
                runs, milliseconds[runs / 2], milliseconds[0], milliseconds[runs - 1]))
}

let arguments = CommandLine.arguments.dropFirst()
switch (arguments.first, arguments.count) {
case ("--write", 2):
    writeFile(at: URL(fileURLWithPath: arguments[arguments.startIndex + 1]))
case ("--read", 2):
    readBenchmark(at: URL(fileURLWithPath: arguments[arguments.startIndex + 1]), runs: 15)
case (nil, _):
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("midi-read-bench-\(ProcessInfo.processInfo.processIdentifier)")
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
        fail("cannot create \(folder.path): \(error)")
    }
    let url = folder.appendingPathComponent("bench.mid")
    writeFile(at: url)
    readBenchmark(at: url, runs: 15)
    try? FileManager.default.removeItem(at: folder)
default:
    fail("usage: midi-read-bench [--write PATH | --read PATH]")
}
