import Foundation
import Synchronization

// `CFSTR("…")` as Apple's compilers make it: a constant CFString per literal that lives as
// long as the process. swift-corelibs-foundation's CoreFoundation does not export
// `__CFStringMakeConstantString`, so this library does: a CFStringRef there is a Foundation
// NSString (toll-free bridged), which the CF functions of libFoundation.so accept.

/// The constant strings made so far, by their text: one object per distinct literal.
private let constantStrings = Mutex<[String: NSString]>([:])

/// `__CFStringMakeConstantString`: the constant CFString of a C string literal (UTF-8), made
/// on first use and never released, so the program may keep it and need not release it.
/// - Thread: [any]
@_cdecl("__CFStringMakeConstantString")
public func _CFStringMakeConstantString(_ cString: UnsafePointer<CChar>?) -> UnsafeRawPointer? {
    guard let cString else { return nil }
    let text = String(cString: cString)
    let object = constantStrings.withLock { table in
        if let existing = table[text] { return existing }
        let made = NSString(string: text)
        table[text] = made
        return made
    }
    return UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
}
