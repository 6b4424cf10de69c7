import Foundation

// CFURL and CFData as AudioToolbox's file and music functions take them. The CF functions
// themselves (CFURLCreateFromFileSystemRepresentation, CFDataCreate, CFRelease…) are
// swift-corelibs-foundation's (libFoundation.so exports them; CoreFoundation/CFURLAndData.h
// declares them), whose CF objects are Foundation's NSURL and NSData, as toll-free bridging
// makes them on Apple: this library reads them as such and hands out NSURL and NSData.

/// Apple's `CFURL`: Foundation's `NSURL`, so `url as CFURL` compiles as on Apple.
/// - Thread: [any]
public typealias CFURL = NSURL

/// Apple's `CFData`: Foundation's `NSData`.
/// - Thread: [any]
public typealias CFData = NSData

/// The object behind a CF reference.
func cfObject(_ ref: UnsafeRawPointer) -> AnyObject { Unmanaged<AnyObject>.fromOpaque(ref).takeUnretainedValue() }

/// The file path of a CFURLRef, or nil for NULL or a reference that is no file URL.
func filePath(of url: OpaquePointer?) -> String? {
    guard let url, let object = cfObject(UnsafeRawPointer(url)) as? NSURL, object.isFileURL else { return nil }
    return object.path
}

/// The bytes of a CFDataRef, or nil for NULL or a reference that is no data.
func bytes(of data: OpaquePointer?) -> [UInt8]? {
    guard let data, let object = cfObject(UnsafeRawPointer(data)) as? NSData else { return nil }
    return [UInt8](object as Data)
}

/// A new CFURLRef (retained: the caller releases it) for a file path.
func retainedFileURL(_ path: String) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(NSURL(fileURLWithPath: path)).toOpaque())
}

/// A new CFDataRef (retained) holding `bytes`.
func retainedData(_ bytes: [UInt8]) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(NSData(bytes: bytes, length: bytes.count)).toOpaque())
}

/// A new CFStringRef (retained: the caller releases it) holding `text`.
func retainedString(_ text: String) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(NSString(string: text)).toOpaque())
}

/// `retainedString` as the C structures' CFStringRef fields import it.
func retainedCFString(_ text: String) -> Unmanaged<CFString> {
    Unmanaged<CFString>.fromOpaque(UnsafeRawPointer(retainedString(text)))
}

/// A new CFArrayRef (retained) of CFStrings.
func retainedStringArray(_ strings: [String]) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(NSArray(array: strings.map { NSString(string: $0) })).toOpaque())
}
