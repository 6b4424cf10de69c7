internal import AUCore
internal import AUEngine

// AudioComponent.h, implemented over the AppleComponents registry. Each public function
// here is exported under Apple's C name; the Swift names are underscored so that Swift code
// calls the C declarations of CAudioToolbox.

/// `AudioComponentFindNext`: the component after `inComponent` (NULL: the first) that
/// matches `inDesc` (0 fields are wildcards; NULL matches all).
/// - Thread: [control]
@_cdecl("AudioComponentFindNext")
public func _AudioComponentFindNext(_ inComponent: OpaquePointer?, _ inDesc: UnsafePointer<AudioComponentDescription>?) -> OpaquePointer? {
    let search = inDesc.map { ComponentDescription($0.pointee) } ?? ComponentDescription()
    let entries = AppleComponents.entries
    var index = 0
    if let inComponent {
        guard let found = entries.firstIndex(where: { $0.pointer == inComponent }) else { return nil }
        index = found + 1
    }
    while index < entries.count {
        if search.matches(entries[index].component.description) { return entries[index].pointer }
        index += 1
    }
    return nil
}

/// `AudioComponentCount`.
/// - Thread: [control]
@_cdecl("AudioComponentCount")
public func _AudioComponentCount(_ inDesc: UnsafePointer<AudioComponentDescription>?) -> UInt32 {
    let search = inDesc.map { ComponentDescription($0.pointee) } ?? ComponentDescription()
    return UInt32(AppleComponents.entries.filter { search.matches($0.component.description) }.count)
}

/// `AudioComponentGetDescription`.
/// - Thread: [control]
@_cdecl("AudioComponentGetDescription")
public func _AudioComponentGetDescription(_ inComponent: OpaquePointer?, _ outDesc: UnsafeMutablePointer<AudioComponentDescription>?) -> OSStatus {
    guard let entry = AppleComponents.entry(inComponent), let outDesc else { return kAudio_ParamError }
    let d = entry.component.description
    outDesc.pointee = AudioComponentDescription(
        componentType: d.type.rawValue, componentSubType: d.subtype.rawValue, componentManufacturer: d.manufacturer.rawValue,
        componentFlags: 0, componentFlagsMask: 0)
    return noErr
}

/// `AudioComponentGetVersion`: 0x00010000 (1.0.0) for every unit AUHost builds in.
/// - Thread: [control]
@_cdecl("AudioComponentGetVersion")
public func _AudioComponentGetVersion(_ inComponent: OpaquePointer?, _ outVersion: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard AppleComponents.entry(inComponent) != nil, let outVersion else { return kAudio_ParamError }
    outVersion.pointee = 0x0001_0000
    return noErr
}

/// `AudioComponentCopyName`: the component's name ("Apple: AUMultiChannelMixer") as a new
/// CFString, which the caller releases.
/// - Thread: [control]
@_cdecl("AudioComponentCopyName")
public func _AudioComponentCopyName(_ inComponent: OpaquePointer?, _ outName: UnsafeMutableRawPointer?) -> OSStatus {
    guard let entry = AppleComponents.entry(inComponent), let outName else { return kAudio_ParamError }
    outName.storeBytes(of: retainedString(entry.component.name), as: OpaquePointer.self)
    return noErr
}

/// `AudioComponentInstanceNew`: a new, uninitialized unit.
/// - Thread: [control]
@_cdecl("AudioComponentInstanceNew")
public func _AudioComponentInstanceNew(_ inComponent: OpaquePointer?, _ outInstance: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let entry = AppleComponents.entry(inComponent), let outInstance else { return kAudio_ParamError }
    apiLock.lock()
    defer { apiLock.unlock() }
    do {
        let handle = UnitHandle(unit: try entry.component.instantiate(), entry: entry)
        UnitHandle.register(handle)
        _ = Unmanaged.passRetained(handle)
        outInstance.pointee = handle.pointer
        return noErr
    } catch {
        outInstance.pointee = nil
        return error.status
    }
}

/// `AudioComponentInstanceDispose`: stops, uninitializes and frees a unit that is no
/// graph's (a graph's units go with `DisposeAUGraph`).
/// - Thread: [control]
@_cdecl("AudioComponentInstanceDispose")
public func _AudioComponentInstanceDispose(_ inInstance: OpaquePointer?) -> OSStatus {
    withUnit(inInstance) { handle in
        if handle.graph != nil { return kAUGraphErr_CannotDoInCurrentContext }
        stopStandalone(handle)
        if let graph = handle.soloGraph {
            graph.dispose()  // a standalone JACK unit belongs to its private graph
        } else {
            handle.unit.dispose()
        }
        UnitHandle.unregister(handle)
        Unmanaged.passUnretained(handle).release()
        return noErr
    }
}

/// `AudioComponentInstanceGetComponent`.
/// - Thread: [control]
@_cdecl("AudioComponentInstanceGetComponent")
public func _AudioComponentInstanceGetComponent(_ inInstance: OpaquePointer?) -> OpaquePointer? {
    guard case .success(let handle) = UnitHandle.lookup(inInstance) else { return nil }
    return handle.entry?.pointer
}
