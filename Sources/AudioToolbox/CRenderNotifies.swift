internal import AUCore

/// The C render notifications added to a unit or a graph (`AudioUnitAddRenderNotify`,
/// `AUGraphAddRenderNotify`): each procedure and user data with the engine's token, and the
/// storage of every callback made for them (kept for the owner's life: a render may still
/// read one that was just removed).
struct CRenderNotifies {
    private var entries: [(proc: AURenderCallback, data: UnsafeMutableRawPointer?, token: RenderNotifyToken)] = []
    private(set) var storages: [CallbackStorage] = []

    /// Adds `proc` with `data` through `register` (the unit's or the graph's `addRenderNotify`).
    mutating func add(
        _ proc: AURenderCallback, _ data: UnsafeMutableRawPointer?,
        register: (RenderCallback) throws(AudioUnitError) -> RenderNotifyToken
    ) throws(AudioUnitError) {
        let storage = CallbackStorage(clientFormat: nil, capacityFrames: 0)
        storages.append(storage)
        let token = try register(CRenderCallback(AURenderCallbackStruct(inputProc: proc, inputProcRefCon: data), storage: storage).engineCallback)
        entries.append((proc, data, token))
    }

    /// Removes every entry of `proc` with `data` through `unregister`.
    mutating func remove(_ proc: AURenderCallback, _ data: UnsafeMutableRawPointer?, unregister: (RenderNotifyToken) -> Void) {
        entries.removeAll { entry in
            let matches = sameCallback(entry.proc, entry.data, proc, data)
            if matches { unregister(entry.token) }
            return matches
        }
    }
}
