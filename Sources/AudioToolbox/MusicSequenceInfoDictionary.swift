import Foundation
internal import AUMIDI

// `MusicSequenceGetInfoDictionary`: what a sequence says about itself, under Apple's
// info-dictionary keys (kAFInfoDictionary_*), every value a string as AudioFile's are:
// "copyright" (the first copyright meta event), "title" (the first sequence/track name on
// the tempo track or the first track, as a format-1 file names its sequence), "comments"
// (text events there, one a line), "tempo" (the first tempo, BPM), "time signature" (the
// first, as "3/4"), "approximate duration in seconds" (the last event's end through the tempo
// map). Keys with nothing to say are left out.

/// `MusicSequenceGetInfoDictionary`: a new CFDictionary (an NSDictionary of NSStrings here)
/// that the caller releases; NULL for a pointer that is no live sequence.
/// - Thread: [control]
@_cdecl("MusicSequenceGetInfoDictionary")
public func _MusicSequenceGetInfoDictionary(_ inSequence: OpaquePointer?) -> OpaquePointer? {
    apiLock.lock()
    defer { apiLock.unlock() }
    guard let sequence = SequenceHandle.live.lookup(inSequence) else { return nil }
    let info = NSDictionary(dictionary: sequenceInfo(sequence.model))
    return OpaquePointer(Unmanaged.passRetained(info).toOpaque())
}

/// The info of a sequence, by Apple's keys.
func sequenceInfo(_ model: SequenceModel) -> [String: String] {
    var info: [String: String] = [:]
    let naming = [model.tempoTrack] + model.tracks.prefix(1)
    let metas: [AUMIDI.MIDIMetaEvent] = naming.flatMap { $0.events.compactMap { if case .meta(let meta) = $0.event { meta } else { nil } } }
    let everyMeta: [AUMIDI.MIDIMetaEvent] = (model.tracks + [model.tempoTrack]).flatMap { $0.events.compactMap { if case .meta(let meta) = $0.event { meta } else { nil } } }
    for meta in everyMeta {
        if case .text(.copyright, _) = meta, info["copyright"] == nil { info["copyright"] = meta.string }
    }
    for meta in metas {
        switch meta {
        case .text(.trackName, _) where info["title"] == nil: info["title"] = meta.string
        case .text(.text, _): info["comments"] = [info["comments"], meta.string].compactMap { $0 }.joined(separator: "\n")
        case .timeSignature(let signature) where info["time signature"] == nil:
            info["time signature"] = "\(signature.numerator)/\(1 << Int(signature.denominatorPower))"
        default: break
        }
    }
    let tempo = model.tempoTrack.events.compactMap { if case .tempo(let tempo) = $0.event { tempo.bpm } else { nil } }.first
    if let tempo { info["tempo"] = String(format: "%g", tempo) }
    if model.length > 0 { info["approximate duration in seconds"] = String(format: "%.3f", model.seconds(forBeats: model.length)) }
    return info
}
