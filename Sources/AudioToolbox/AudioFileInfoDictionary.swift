import Foundation
internal import AUFiles

// kAudioFilePropertyInfoDictionary: the texts libsndfile reads from a file under Apple's
// kAFInfoDictionary_* keys, and the file's approximate duration.

/// Apple's info dictionary key of each text libsndfile reads (its license has no key).
private let infoKeys: [AudioFileTag: String] = [
    .title: "title", .artist: "artist", .album: "album", .comment: "comments", .copyright: "copyright",
    .genre: "genre", .date: "recorded date", .trackNumber: "track number", .software: "encoding application",
]

/// The info dictionary of a file with `tags` lasting `seconds`: each text under its key, a
/// date that starts with a year also as `year`, and `approximate duration in seconds`
/// (a string, as Apple's).
func infoDictionary(tags: [AudioFileTag: String], seconds: Double) -> [String: String] {
    var dictionary: [String: String] = [:]
    for (tag, text) in tags {
        if let key = infoKeys[tag] { dictionary[key] = text }
    }
    if let date = tags[.date], date.count >= 4, date.prefix(4).allSatisfy(\.isASCII), let year = Int(date.prefix(4)) {
        dictionary["year"] = String(year)
    }
    dictionary["approximate duration in seconds"] = String(format: "%.3f", seconds)
    return dictionary
}

/// A new CFDictionaryRef (an NSDictionary of NSStrings, retained: the caller releases it).
func retainedDictionary(_ dictionary: [String: String]) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(NSDictionary(dictionary: dictionary)).toOpaque())
}
