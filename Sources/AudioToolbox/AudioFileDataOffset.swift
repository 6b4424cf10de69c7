import Foundation

// kAudioFilePropertyDataOffset: where a file's audio data starts, found by walking the
// chunks of the containers whose data is one block of bytes (RIFF WAVE and RF64, AIFF and
// AIFC, CAF). libsndfile keeps this offset to itself, so it is read from the header here.

/// The byte offset of the first audio byte of the WAVE, RF64, AIFF, AIFC or CAF file at
/// `path`; nil for another container or a header without a data chunk.
func audioDataOffset(path: String) -> Int64? {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? file.close() }
    func bytes(at offset: UInt64, _ count: Int) -> [UInt8]? {
        guard (try? file.seek(toOffset: offset)) != nil, let data = try? file.read(upToCount: count), data.count == count else { return nil }
        return [UInt8](data)
    }
    func integer(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> UInt64 {
        (bigEndian ? Array(bytes) : bytes.reversed()).reduce(0) { $0 << 8 | UInt64($1) }
    }
    guard let head = bytes(at: 0, 12) else { return nil }
    let magic = String(decoding: head[0..<4], as: UTF8.self), form = String(decoding: head[8..<12], as: UTF8.self)
    // Each container: where chunks start, the size of a chunk header and of its size field,
    // the byte order, and the data chunk's name and the bytes before its audio.
    let layout: (first: UInt64, sizeBytes: Int, bigEndian: Bool, pads: Bool, data: String)
    switch (magic, form) {
    case ("RIFF", "WAVE"), ("RF64", "WAVE"): layout = (12, 4, false, true, "data")
    case ("FORM", "AIFF"), ("FORM", "AIFC"): layout = (12, 4, true, true, "SSND")
    case ("caff", _): layout = (8, 8, true, false, "data")
    default: return nil
    }
    var position = layout.first
    while let header = bytes(at: position, 4 + layout.sizeBytes) {
        let name = String(decoding: header[0..<4], as: UTF8.self)
        let size = integer(header[4...], bigEndian: layout.bigEndian)
        let body = position + UInt64(4 + layout.sizeBytes)
        switch name {
        // RIFF's audio starts with its chunk; CAF's after a 4-byte edit count; AIFF's after
        // an offset (added) and a block size.
        case layout.data where magic == "caff": return Int64(body + 4)
        case layout.data where magic == "FORM":
            guard let offset = bytes(at: body, 4) else { return nil }
            return Int64(body + 8 + integer(offset[...], bigEndian: true))
        case layout.data: return Int64(body)
        default: break
        }
        guard size < UInt64(Int64.max) / 2 else { return nil }
        position = body + size + (layout.pads ? size & 1 : 0)
    }
    return nil
}
