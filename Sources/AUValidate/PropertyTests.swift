import AUCore
import Synchronization

/// The properties a host reads and sets: at each scope and element, refused where they do
/// not exist, writable where documented, with listeners told; and the stream formats.
enum PropertyTests {
    static let properties = ValidationTest("properties", strictness: 2, "required properties readable at their scopes and elements, refused elsewhere, writable where documented, listeners fire") { context in
        let unit = try context.instance()
        var read = 0
        func check<Value>(_ key: PropertyKey<Value>, _ scope: Scope = .global, _ element: Element = 0, writable: Bool) throws {
            if let error = thrownError({ _ = try unit.value(of: key, scope: scope, element: element) }) {
                throw ValidationFailure("\(key) at \(scope) element \(element) cannot be read: \(error.message)")
            }
            let info = try unit.info(for: key, scope: scope, element: element)
            try require(info.isWritable == writable, "\(key) at \(scope) element \(element) says it is \(info.isWritable ? "" : "not ")writable")
            read += 1
        }
        try check(.sampleRate, writable: true)
        try check(.latency, writable: false)
        try check(.tailTime, writable: false)
        try check(.maximumFramesPerSlice, writable: true)
        try check(.parameterList, writable: false)
        try check(.classInfo, writable: true)
        try check(.lastRenderError, writable: false)
        try check(.factoryPresets, writable: false)
        try check(.presentPreset, writable: true)
        for scope in [Scope.input, .output] {
            try check(.elementCount, scope, writable: unit.canChangeElementCount(scope: scope))
            for element in 0..<unit.elementCount(scope) {
                try check(.streamFormat, scope, element, writable: true)
                try check(.sampleRate, scope, element, writable: true)
                try check(.elementName, scope, element, writable: true)
            }
            let missing = unit.elementCount(scope)
            try requireRefusal("StreamFormat at \(scope) element \(missing) (no such bus)", [.invalidElement]) { _ = try unit.value(of: .streamFormat, scope: scope, element: missing) }
            try requireRefusal("Latency at the \(scope) scope", [.invalidScope, .invalidElement]) { _ = try unit.value(of: .latency, scope: scope) }
        }
        try requireRefusal("setting Latency", [.propertyNotWritable]) { try unit.setValue(0.5, for: .latency) }
        try requireRefusal("MaximumFramesPerSlice 0", [.invalidPropertyValue]) { try unit.setValue(0, for: .maximumFramesPerSlice) }

        let heard = Mutex<[PropertyChange]>([])
        let token = unit.addPropertyListener(PropertyID.maximumFramesPerSlice) { change in heard.withLock { $0.append(change) } }
        let formatToken = unit.addPropertyListener(PropertyID.streamFormat) { change in heard.withLock { $0.append(change) } }
        defer { _ = unit.removeListener(token); _ = unit.removeListener(formatToken) }
        try unit.setValue(1024, for: .maximumFramesPerSlice)
        let frames = try unit.value(of: .maximumFramesPerSlice)
        try require(frames == 1024, "MaximumFramesPerSlice set to 1024 reads back \(frames)")
        try require(heard.withLock { $0.filter { $0.id == .maximumFramesPerSlice }.count } == 1, "the MaximumFramesPerSlice listener was not called once")
        let busCount = unit.elementCount(.input) + unit.elementCount(.output)
        try unit.setValue(44_100.0, for: .sampleRate)
        for scope in [Scope.input, .output] {
            for element in 0..<unit.elementCount(scope) {
                let rate = try unit.value(of: .streamFormat, scope: scope, element: element).sampleRate
                try require(rate == 44_100, "after SampleRate 44100, \(scope) bus \(element) runs at \(rate)")
            }
        }
        try require(heard.withLock { $0.filter { $0.id == .streamFormat }.count } == busCount, "the StreamFormat listener heard of \(heard.withLock { $0.filter { $0.id == .streamFormat }.count }) of \(busCount) buses")
        try unit.initialize()
        try requireRefusal("MaximumFramesPerSlice while initialized", [.initialized]) { try unit.setValue(512, for: .maximumFramesPerSlice) }
        return ValidationResult(.pass, "\(read) reads at their scopes and elements; refusals, writes and listeners as documented")
    }

    static let streamFormats = ValidationTest("stream-formats", strictness: 3, "each bus takes canonical float formats at every sample rate tested, and refuses others with FormatNotSupported") { context in
        let unit = try context.instance()
        var accepted = 0
        for scope in [Scope.input, .output] {
            for element in 0..<unit.elementCount(scope) {
                let current = try unit.value(of: .streamFormat, scope: scope, element: element)
                for rate in context.settings.sampleRates {
                    let format = StreamFormat.canonical(sampleRate: rate, channels: current.channelsPerFrame)
                    do throws(AudioUnitError) { try unit.setValue(format, for: .streamFormat, scope: scope, element: element) } catch {
                        throw ValidationFailure("\(scope) bus \(element) refused \(format): \(error.message)")
                    }
                    let back = try unit.value(of: .streamFormat, scope: scope, element: element)
                    try require(back == format, "\(scope) bus \(element) was set to \(format) and reads back \(back)")
                    accepted += 1
                }
                let bus = "\(scope) bus \(element)"
                // A format converter's work is to take other formats.
                if context.component.description.type != ComponentType.formatConverter {
                    try requireRefusal("\(bus): 16-bit interleaved integers", [.formatNotSupported]) {
                        try unit.setValue(.int16Interleaved(sampleRate: current.sampleRate, channels: current.channelsPerFrame), for: .streamFormat, scope: scope, element: element)
                    }
                }
                try requireRefusal("\(bus): a sample rate of 0", [.formatNotSupported, .invalidPropertyValue]) {
                    try unit.setValue(.canonical(sampleRate: 0, channels: current.channelsPerFrame), for: .streamFormat, scope: scope, element: element)
                }
                try requireRefusal("\(bus): 0 channels", [.formatNotSupported, .invalidPropertyValue]) {
                    try unit.setValue(.canonical(sampleRate: current.sampleRate, channels: 0), for: .streamFormat, scope: scope, element: element)
                }
                try unit.setValue(current, for: .streamFormat, scope: scope, element: element)
            }
        }
        try unit.initialize()
        if let scope = [Scope.output, .input].first(where: { unit.elementCount($0) > 0 }) {
            let current = try unit.value(of: .streamFormat, scope: scope, element: 0)
            let other = StreamFormat.canonical(sampleRate: current.sampleRate == 48_000 ? 44_100 : 48_000, channels: current.channelsPerFrame)
            try requireRefusal("a new format while initialized", [.initialized]) { try unit.setValue(other, for: .streamFormat, scope: scope, element: 0) }
        }
        return ValidationResult(.pass, "\(accepted) formats accepted; integer, rate-0 and 0-channel formats refused")
    }
}
