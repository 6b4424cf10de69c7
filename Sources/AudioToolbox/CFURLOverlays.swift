import Foundation

// Swift overlays for the music and file half, as Apple's SDK imports it: a CFURL argument is
// written `url as CFURL`, which here is an NSURL (CoreFoundationObjects.swift), while the
// C declarations import CFURLRef as the header's own CF class; these overloads take the NSURL.

extension AUSamplerInstrumentData {
    /// Apple's memberwise initializer with `Unmanaged.passUnretained(url as CFURL)`.
    /// - Thread: [any]
    public init(fileURL: Unmanaged<CFURL>, instrumentType: UInt8, bankMSB: UInt8, bankLSB: UInt8, presetID: UInt8) {
        self.init()
        self.fileURL = Unmanaged.fromOpaque(fileURL.toOpaque())
        self.instrumentType = instrumentType
        self.bankMSB = bankMSB
        self.bankLSB = bankLSB
        self.presetID = presetID
    }
}

extension Unmanaged where Instance == CFURL {
    /// `Unmanaged.passUnretained(url as CFURL)`: on Apple the bridged URL is autoreleased and
    /// outlives the statement; here the temporary would die at once, so it is kept among the
    /// last 64 passed (``BridgedObjectPool``), as an autorelease pool keeps it until it drains.
    /// - Thread: [any]
    public static func passUnretained(_ value: CFURL) -> Unmanaged<CFURL> {
        BridgedObjectPool.keep(value)
        return Unmanaged.fromOpaque(UnsafeRawPointer(Unmanaged<AnyObject>.passUnretained(value).toOpaque()))
    }
}

/// `MusicSequenceFileLoad` with `url as CFURL`.
/// - Thread: [control]
public func MusicSequenceFileLoad(
    _ inSequence: MusicSequence, _ inFileRef: CFURL, _ inFileTypeHint: MusicSequenceFileTypeID, _ inFlags: MusicSequenceLoadFlags
) -> OSStatus {
    _MusicSequenceFileLoad(inSequence, OpaquePointer(Unmanaged.passUnretained(inFileRef).toOpaque()), inFileTypeHint, inFlags)
}

/// `MusicSequenceFileCreate` with `url as CFURL`.
/// - Thread: [control]
public func MusicSequenceFileCreate(
    _ inSequence: MusicSequence, _ inFileRef: CFURL, _ inFileType: MusicSequenceFileTypeID, _ inFlags: MusicSequenceFileFlags,
    _ inResolution: Int16
) -> OSStatus {
    _MusicSequenceFileCreate(inSequence, OpaquePointer(Unmanaged.passUnretained(inFileRef).toOpaque()), inFileType, inFlags, inResolution)
}

/// The last objects bridged for a C structure (`url as CFURL` in an initializer), kept alive
/// as Apple's autorelease pool keeps a bridged object: the 64 most recent.
enum BridgedObjectPool {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var recent: [NSObject] = []

    static func keep(_ object: NSObject) {
        lock.lock()
        defer { lock.unlock() }
        recent.append(object)
        if recent.count > 64 { recent.removeFirst() }
    }
}

/// `ExtAudioFileOpenURL` with `url as CFURL`.
/// - Thread: [control]
public func ExtAudioFileOpenURL(_ inURL: CFURL, _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>) -> OSStatus {
    _ExtAudioFileOpenURL(OpaquePointer(Unmanaged.passUnretained(inURL).toOpaque()), outExtAudioFile)
}

/// `ExtAudioFileCreateWithURL` with `url as CFURL`.
/// - Thread: [control]
public func ExtAudioFileCreateWithURL(
    _ inURL: CFURL, _ inFileType: AudioFileTypeID, _ inStreamDesc: UnsafePointer<AudioStreamBasicDescription>,
    _ inChannelLayout: UnsafePointer<AudioChannelLayout>?, _ inFlags: UInt32, _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>
) -> OSStatus {
    _ExtAudioFileCreateWithURL(
        OpaquePointer(Unmanaged.passUnretained(inURL).toOpaque()), inFileType, inStreamDesc, inChannelLayout, inFlags,
        outExtAudioFile)
}

/// `AudioFileOpenURL` with `url as CFURL`.
/// - Thread: [control]
public func AudioFileOpenURL(
    _ inFileRef: CFURL, _ inPermissions: AudioFilePermissions, _ inFileTypeHint: AudioFileTypeID, _ outAudioFile: UnsafeMutablePointer<AudioFileID?>
) -> OSStatus {
    _AudioFileOpenURL(OpaquePointer(Unmanaged.passUnretained(inFileRef).toOpaque()), inPermissions, inFileTypeHint, outAudioFile)
}

/// `AudioFileCreateWithURL` with `url as CFURL`.
/// - Thread: [control]
public func AudioFileCreateWithURL(
    _ inFileRef: CFURL, _ inFileType: AudioFileTypeID, _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: AudioFileFlags,
    _ outAudioFile: UnsafeMutablePointer<AudioFileID?>
) -> OSStatus {
    _AudioFileCreateWithURL(OpaquePointer(Unmanaged.passUnretained(inFileRef).toOpaque()), inFileType, inFormat, inFlags, outAudioFile)
}
