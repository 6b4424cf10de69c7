/// When a render cycle happens (Core Audio's `AudioTimeStamp`).
/// - Thread: [any] (a plain value).
public struct RenderTimestamp: Sendable, Equatable, BitwiseCopyable {
    /// The sample time of the first frame of the cycle, counted by the driver.
    public var sampleTime: Double
    /// A monotonic host time in nanoseconds, when ``flags`` says it is valid.
    public var hostTime: UInt64
    /// How fast sample time runs against host time (1 = nominal).
    public var rateScalar: Double
    public var flags: Flags

    /// - Thread: [any]
    public init(sampleTime: Double, hostTime: UInt64 = 0, rateScalar: Double = 1, flags: Flags = .sampleTimeValid) {
        self.sampleTime = sampleTime
        self.hostTime = hostTime
        self.rateScalar = rateScalar
        self.flags = flags
    }

    /// `AudioTimeStampFlags`.
    /// - Thread: [any]
    public struct Flags: OptionSet, Sendable, Equatable, BitwiseCopyable {
        public let rawValue: UInt32
        /// - Thread: [any]
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let sampleTimeValid = Flags(rawValue: 1 << 0)
        public static let hostTimeValid = Flags(rawValue: 1 << 1)
        public static let rateScalarValid = Flags(rawValue: 1 << 2)
    }
}

/// Render action flags (`AudioUnitRenderActionFlags`), passed in and out of a render.
/// - Thread: [any]
public struct RenderFlags: OptionSet, Sendable, BitwiseCopyable {
    public let rawValue: UInt32
    /// - Thread: [any]
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The notification before a render (`kAudioUnitRenderAction_PreRender`).
    public static let preRender = RenderFlags(rawValue: 1 << 2)
    /// The notification after a render (`kAudioUnitRenderAction_PostRender`).
    public static let postRender = RenderFlags(rawValue: 1 << 3)
    /// Set by a unit whose output is silence (`kAudioUnitRenderAction_OutputIsSilence`).
    public static let outputIsSilence = RenderFlags(rawValue: 1 << 4)
    /// The render is the first of an offline render (`kAudioOfflineUnitRenderAction_Preflight`).
    public static let offlinePreflight = RenderFlags(rawValue: 1 << 5)
    /// The render is part of an offline render (`kAudioOfflineUnitRenderAction_Render`).
    public static let offlineRender = RenderFlags(rawValue: 1 << 6)
    /// The render is the last of an offline render (`kAudioOfflineUnitRenderAction_Complete`).
    public static let offlineComplete = RenderFlags(rawValue: 1 << 7)
    /// The post-render notification of a failed render (`kAudioUnitRenderAction_PostRenderError`).
    public static let postRenderError = RenderFlags(rawValue: 1 << 8)
    /// Do not process; only pull inputs (`kAudioUnitRenderAction_DoNotCheckRenderArgs`).
    public static let doNotCheckRenderArgs = RenderFlags(rawValue: 1 << 9)
}

/// One short MIDI message at a sample offset within the next render
/// (what `MusicDeviceMIDIEvent` schedules). System exclusive is not carried here.
/// - Thread: [any] (a plain value; render-safe).
public struct MIDIEvent: Sendable, Equatable, BitwiseCopyable {
    /// The frame within the cycle at which the event takes effect.
    public var offset: Int32
    public var status: UInt8
    public var data1: UInt8
    public var data2: UInt8

    /// - Thread: [any]
    public init(offset: Int32, status: UInt8, data1: UInt8, data2: UInt8 = 0) {
        self.offset = offset
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// How many bytes the message has (1, 2 or 3) by its status.
    /// - Thread: [any]
    public var length: Int {
        switch status & 0xF0 {
        case 0xC0, 0xD0: 2
        case 0xF0:
            switch status {
            case 0xF1, 0xF3: 2
            case 0xF2: 3
            default: 1
            }
        default: 3
        }
    }

    /// - Thread: [any]
    public static func noteOn(_ note: UInt8, velocity: UInt8, channel: UInt8 = 0, offset: Int32 = 0) -> MIDIEvent {
        MIDIEvent(offset: offset, status: 0x90 | (channel & 0x0F), data1: note, data2: velocity)
    }

    /// - Thread: [any]
    public static func noteOff(_ note: UInt8, channel: UInt8 = 0, offset: Int32 = 0) -> MIDIEvent {
        MIDIEvent(offset: offset, status: 0x80 | (channel & 0x0F), data1: note, data2: 0)
    }
}
