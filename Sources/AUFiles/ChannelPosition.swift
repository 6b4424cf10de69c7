/// Where a file's channel is meant to sound, as a file's channel map says (WAV's channel
/// mask, CAF's and AIFF's channel layout chunk); the raw values are libsndfile's
/// `SF_CHANNEL_MAP_*` codes.
/// - Thread: [any] (a plain value).
public enum ChannelPosition: Int32, Sendable, CaseIterable {
    case mono = 1, left, right, center, frontLeft, frontRight, frontCenter, rearCenter, rearLeft, rearRight, lowFrequency
    case frontLeftOfCenter, frontRightOfCenter, sideLeft, sideRight, topCenter, topFrontLeft, topFrontRight, topFrontCenter
    case topRearLeft, topRearRight, topRearCenter, ambisonicW, ambisonicX, ambisonicY, ambisonicZ
}

/// A text a file carries about its audio (WAV's LIST INFO, AIFF's NAME/AUTH/ANNO/(c), FLAC's
/// and Ogg's Vorbis comments), as libsndfile reads and writes them.
/// - Thread: [any] (a plain value).
public enum AudioFileTag: Sendable, CaseIterable {
    case title, copyright, software, artist, comment, date, album, license, trackNumber, genre
}
