import Foundation
import Synchronization
internal import AUCore

// FSRef, the file reference of Apple's Carbon File Manager that Core Audio sample code still
// passes (kMusicDeviceProperty_SoundBankFSRef, MusicSequenceLoadSMFWithFlags): 80 opaque
// bytes, which here hold a tag and the index of the path in the process's table of paths
// made into references (CoreServices/CoreServices.h).

enum FSRefTable {
    private static let paths = Mutex<[String]>([])
    private static let tag: UInt64 = 0x6652_5346_7348_5541   // "AUHsFSRf", little-endian

    /// A reference to `path` (an absolute path).
    static func make(_ path: String) -> FSRef {
        let index = paths.withLock { paths in
            if let found = paths.firstIndex(of: path) { return found }
            paths.append(path)
            return paths.count - 1
        }
        var ref = FSRef()
        withUnsafeMutableBytes(of: &ref) { bytes in
            bytes.storeBytes(of: tag, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: UInt64(index), toByteOffset: 8, as: UInt64.self)
        }
        return ref
    }

    /// The path a reference made by ``make(_:)`` names, or nil for any other 80 bytes.
    static func path(of ref: UnsafeRawPointer?) -> String? {
        guard let ref, ref.loadUnaligned(as: UInt64.self) == tag else { return nil }
        let index = ref.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        return paths.withLock { index < UInt64($0.count) ? $0[Int(index)] : nil }
    }
}

/// `FSPathMakeRef`: a reference to an existing file or folder (fnfErr when there is none);
/// `isDirectory` may be NULL.
/// - Thread: [any]
@_cdecl("FSPathMakeRef")
public func _FSPathMakeRef(_ path: UnsafePointer<UInt8>?, _ ref: UnsafeMutablePointer<FSRef>?, _ isDirectory: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    guard let path, let ref else { return kAudio_ParamError }
    let text = String(cString: path)
    var directory: ObjCBool = false
    guard !text.isEmpty, FileManager.default.fileExists(atPath: text, isDirectory: &directory) else { return fnfErr }
    ref.pointee = FSRefTable.make(URL(fileURLWithPath: text).standardizedFileURL.path)
    isDirectory?.pointee = directory.boolValue ? 1 : 0
    return noErr
}

/// `FSRefMakePath`: the reference's path, NUL-terminated (kAudio_ParamError when it does not
/// fit, bdNamErr for bytes that are no reference made here).
/// - Thread: [any]
@_cdecl("FSRefMakePath")
public func _FSRefMakePath(_ ref: UnsafePointer<FSRef>?, _ path: UnsafeMutablePointer<UInt8>?, _ size: UInt32) -> OSStatus {
    guard let ref, let path else { return kAudio_ParamError }
    guard let text = FSRefTable.path(of: UnsafeRawPointer(ref)) else { return bdNamErr }
    let bytes = Array(text.utf8)
    guard bytes.count < Int(size) else { return kAudio_ParamError }
    for (index, byte) in bytes.enumerated() { path[index] = byte }
    path[bytes.count] = 0
    return noErr
}

/// `MusicSequenceLoadSMFWithFlags`: MusicSequenceFileLoad of the file an FSRef names.
/// - Thread: [control]
@_cdecl("MusicSequenceLoadSMFWithFlags")
public func _MusicSequenceLoadSMFWithFlags(_ inSequence: OpaquePointer?, _ inFileRef: UnsafePointer<FSRef>?, _ inFlags: UInt32) -> OSStatus {
    guard let path = inFileRef.flatMap({ FSRefTable.path(of: UnsafeRawPointer($0)) }) else { return kAudio_ParamError }
    let url = NSURL(fileURLWithPath: path)
    return withExtendedLifetime(url) {
        _MusicSequenceFileLoad(inSequence, OpaquePointer(Unmanaged.passUnretained(url).toOpaque()), kMusicSequenceFile_MIDIType, inFlags)
    }
}
