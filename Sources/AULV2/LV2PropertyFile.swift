import AUCore
import Foundation
import Glibc

/// The checks a file given to a plugin's `atom:Path` property passes before the plugin
/// sees it, so that a mistake is one clear error naming the file, whatever the plugin
/// would have done with it (most log it, some crash, some say nothing).
/// - Thread: [control]
enum LV2PropertyFile {
    /// `path` made absolute (a relative path is taken from the current directory; a
    /// preset's are resolved against its folder before they get here), after checking it
    /// names an existing, readable regular file — and an audio file when `expectsAudio`.
    static func checked(_ path: String, unit: String, property: String, expectsAudio: Bool) throws(AudioUnitError) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let what = "\(unit): property '\(property)':"
        switch AtomicFile.NodeKind(path: absolute) {
        case .regularFile: break
        case .missing: throw AudioUnitError(.invalidFilePath, "\(what) \(absolute) does not exist")
        case let kind: throw AudioUnitError(.invalidFilePath, "\(what) \(absolute) is \(kind), not a regular file")
        }
        guard access(absolute, R_OK) == 0 else {
            throw AudioUnitError(.invalidFilePath, "\(what) \(absolute) cannot be read (\(String(cString: strerror(errno))))")
        }
        if expectsAudio, !isAudioFile(absolute) {
            throw AudioUnitError(.invalidFile, "\(what) \(absolute) is not an audio file (WAV, AIFF, FLAC, Ogg, CAF or AU)")
        }
        return absolute
    }

    /// Whether the property takes an audio file: its identifier or label names an impulse
    /// response or a sample (`ir`, `impulse`, `sample`, `audio`, `wav`). LV2 has no standard
    /// way for a plugin to say which files a path property takes.
    static func expectsAudio(_ info: PropertyParameterInfo) -> Bool {
        let words = (info.identifier + " " + info.name).lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.contains { ["ir", "impulse", "sample", "audio", "wav"].contains($0) }
    }

    /// Whether the file starts the way the formats libsndfile reads do.
    static func isAudioFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 12)) ?? Data())
        guard head.count >= 4 else { return false }
        let first = String(decoding: head[0..<4], as: UTF8.self)
        let second = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
        switch first {
        case "RIFF", "RIFX", "RF64", "BW64": return second == "WAVE"
        case "FORM": return second == "AIFF" || second == "AIFC"
        case "fLaC", "OggS", "caff", ".snd": return true
        default: return false
        }
    }
}
