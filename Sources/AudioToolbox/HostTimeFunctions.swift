import Glibc

// CoreAudio.h's host time: the host clock is CLOCK_MONOTONIC in nanoseconds (one tick a
// nanosecond), the clock of MusicPlayer's and CAClock's host times and of an output
// unit's AudioTimeStamp mHostTime.

/// Now, in host-time nanoseconds.
func hostTimeNow() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// `AudioGetCurrentHostTime`: the host clock now, in ticks (nanoseconds).
/// - Thread: [any]
@_cdecl("AudioGetCurrentHostTime")
public func _AudioGetCurrentHostTime() -> UInt64 { hostTimeNow() }

/// `AudioGetHostClockFrequency`: ticks per second (1e9).
/// - Thread: [any]
@_cdecl("AudioGetHostClockFrequency")
public func _AudioGetHostClockFrequency() -> Double { 1e9 }

/// `AudioGetHostClockMinimumTimeDelta`: the smallest tick difference the clock shows (its resolution).
/// - Thread: [any]
@_cdecl("AudioGetHostClockMinimumTimeDelta")
public func _AudioGetHostClockMinimumTimeDelta() -> UInt32 {
    var resolution = timespec()
    clock_getres(CLOCK_MONOTONIC, &resolution)
    return UInt32(max(1, resolution.tv_sec * 1_000_000_000 + resolution.tv_nsec))
}

/// `AudioConvertHostTimeToNanos`: ticks are nanoseconds.
/// - Thread: [any]
@_cdecl("AudioConvertHostTimeToNanos")
public func _AudioConvertHostTimeToNanos(_ hostTime: UInt64) -> UInt64 { hostTime }

/// `AudioConvertNanosToHostTime`: nanoseconds are ticks.
/// - Thread: [any]
@_cdecl("AudioConvertNanosToHostTime")
public func _AudioConvertNanosToHostTime(_ nanos: UInt64) -> UInt64 { nanos }
