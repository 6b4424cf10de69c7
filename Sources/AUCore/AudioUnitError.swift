/// A status code as the render path returns it (Core Audio's `OSStatus`): `0` is success.
/// - Thread: [any]
public typealias AudioUnitStatus = Int32

/// The Audio Unit error codes, with the values of Core Audio's `kAudioUnitErr_*`.
/// - Thread: [any]
public enum AudioUnitErrorCode: Int32, Sendable, CaseIterable {
    case invalidProperty = -10879
    case invalidParameter = -10878
    case invalidElement = -10877
    case noConnection = -10876
    case failedInitialization = -10875
    case tooManyFramesToProcess = -10874
    case invalidFile = -10871
    case unknownFileType = -10870
    case fileNotSpecified = -10869
    case formatNotSupported = -10868
    case uninitialized = -10867
    case invalidScope = -10866
    case propertyNotWritable = -10865
    case cannotDoInCurrentContext = -10863
    case invalidPropertyValue = -10851
    case propertyNotInUse = -10850
    case initialized = -10849
    case invalidOfflineRender = -10848
    case unauthorized = -10847
    case renderTimeout = -66745
    case extensionNotFound = -66744
    case invalidParameterValue = -66743
    case invalidFilePath = -66742
    case missingKey = -66741
    /// `kAudio_ParamError`: a bad argument.
    case parameterError = -50
    /// `kAudioComponentErr_InstanceInvalidated`: used after dispose.
    case instanceInvalidated = -66749
    /// `kAudioComponentErr_UnsupportedType`: a unit that cannot be loaded or created here.
    case unsupportedType = -66751
    /// `kAudioComponentErr_NotPermitted`: a unit refused for safety (say, a world-writable file).
    case notPermitted = -66748

    /// The Core Audio constant's name, for messages and JSON.
    /// - Thread: [any]
    public var name: String {
        switch self {
        case .invalidProperty: "InvalidProperty"
        case .invalidParameter: "InvalidParameter"
        case .invalidElement: "InvalidElement"
        case .noConnection: "NoConnection"
        case .failedInitialization: "FailedInitialization"
        case .tooManyFramesToProcess: "TooManyFramesToProcess"
        case .invalidFile: "InvalidFile"
        case .unknownFileType: "UnknownFileType"
        case .fileNotSpecified: "FileNotSpecified"
        case .formatNotSupported: "FormatNotSupported"
        case .uninitialized: "Uninitialized"
        case .invalidScope: "InvalidScope"
        case .propertyNotWritable: "PropertyNotWritable"
        case .cannotDoInCurrentContext: "CannotDoInCurrentContext"
        case .invalidPropertyValue: "InvalidPropertyValue"
        case .propertyNotInUse: "PropertyNotInUse"
        case .initialized: "Initialized"
        case .invalidOfflineRender: "InvalidOfflineRender"
        case .unauthorized: "Unauthorized"
        case .renderTimeout: "RenderTimeout"
        case .extensionNotFound: "ExtensionNotFound"
        case .invalidParameterValue: "InvalidParameterValue"
        case .invalidFilePath: "InvalidFilePath"
        case .missingKey: "MissingKey"
        case .parameterError: "ParamError"
        case .instanceInvalidated: "InstanceInvalidated"
        case .unsupportedType: "UnsupportedType"
        case .notPermitted: "NotPermitted"
        }
    }
}

/// An Audio Unit error: a Core Audio code, a message that names the thing, and a cause.
/// - Thread: [any] Made off the render thread only (the render path returns a status).
public struct AudioUnitError: Error, Sendable, CustomStringConvertible {
    public var code: AudioUnitErrorCode
    public var message: String
    public var underlying: (any Error & Sendable)?

    /// - Thread: [any]
    public init(_ code: AudioUnitErrorCode, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The error for a status the render path returned.
    /// - Thread: [any]
    public init(status: AudioUnitStatus, context: String) {
        let code = AudioUnitErrorCode(rawValue: status)
        self.init(code ?? .parameterError, "\(context): status \(status)\(code.map { " (\($0.name))" } ?? "")")
    }

    /// - Thread: [any]
    public var status: AudioUnitStatus { code.rawValue }

    /// - Thread: [any]
    public var description: String {
        var text = "\(message) [\(code.name) \(code.rawValue)]"
        if let underlying { text += ": \(underlying)" }
        return text
    }
}
