import Foundation

// Swift overlays for the music half, as Apple's SDK imports it: a CFURL argument is
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
