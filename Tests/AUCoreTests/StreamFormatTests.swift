import AUCore
import Testing

@Suite struct StreamFormatTests {
    @Test func canonicalFormatIsFloatNonInterleaved() throws {
        let format = StreamFormat.canonical(sampleRate: 48_000, channels: 2)
        try format.validate()
        #expect(format.isCanonical)
        #expect(format.bytesPerFrame == 4)
        #expect(format.description == "48000 Hz, 2 ch, Float32, non-interleaved")
        #expect(StreamFormat.int16Interleaved(sampleRate: 44_100, channels: 2).bytesPerFrame == 4)
        #expect(StreamFormat.fixed824(sampleRate: 44_100, channels: 1).description == "44100 Hz, 1 ch, 8.24 fixed, non-interleaved")
    }

    @Test(arguments: [
        ("format ID", { @Sendable (f: inout StreamFormat) in f.formatID = "aac " }),
        ("sample rate", { @Sendable (f: inout StreamFormat) in f.sampleRate = 0 }),
        ("sample rate", { @Sendable (f: inout StreamFormat) in f.sampleRate = .infinity }),
        ("channels", { @Sendable (f: inout StreamFormat) in f.channelsPerFrame = 0 }),
        ("bytes per frame", { @Sendable (f: inout StreamFormat) in f.bytesPerFrame = 8 }),
        ("float samples are 32 or 64", { @Sendable (f: inout StreamFormat) in f.bitsPerChannel = 16 }),
        ("both float and signed", { @Sendable (f: inout StreamFormat) in f.formatFlags.insert(.isSignedInteger) }),
        ("big-endian", { @Sendable (f: inout StreamFormat) in f.formatFlags.insert(.isBigEndian) }),
        ("frame per packet", { @Sendable (f: inout StreamFormat) in f.framesPerPacket = 2 }),
    ] as [(String, @Sendable (inout StreamFormat) -> Void)])
    func invalidFormatsAreRejectedWithTheReason(expected: String, damage: @Sendable (inout StreamFormat) -> Void) {
        var format = StreamFormat.canonical(sampleRate: 48_000, channels: 2)
        damage(&format)
        do {
            try format.validate()
            Issue.record("\(format) was accepted")
        } catch {
            #expect(error.code == .formatNotSupported)
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    /// Encodes canonical samples into `format` and decodes them back.
    func roundTrip(_ samples: [[Float]], through format: StreamFormat) throws -> (raw: [[UInt8]], decoded: [[Float]]) {
        let converter = try SampleConverter(format: format)
        let frames = samples[0].count
        let source = OwnedAudioBuffers(channels: samples.count, capacity: frames)
        for (channel, values) in samples.enumerated() { _ = source.buffers()[channel].update(fromContentsOf: values) }
        let bufferBytes = format.bytesPerFrame * frames
        var raw = Array(repeating: [UInt8](repeating: 0, count: bufferBytes), count: converter.bufferCount)
        let pointers = raw.indices.map { index in raw[index].withUnsafeMutableBytes { $0.baseAddress! } }
        // The arrays above are not moved while `pointers` are used below.
        pointers.withUnsafeBufferPointer { converter.encode(source.buffers(), frameCount: frames, into: $0) }
        let decodedBuffers = OwnedAudioBuffers(channels: samples.count, capacity: frames)
        pointers.map { UnsafeRawPointer($0) }.withUnsafeBufferPointer {
            converter.decode($0, frameCount: frames, into: decodedBuffers.buffers())
        }
        let decoded = (0..<samples.count).map { Array(decodedBuffers.buffers()[$0]) }
        return (raw, decoded)
    }

    @Test func int16InterleavedConversion() throws {
        let (raw, decoded) = try roundTrip([[0, 0.5, -1, 1.5], [0.25, -0.5, 1, -2]], through: .int16Interleaved(sampleRate: 48_000, channels: 2))
        let words = raw[0].withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(words == [0, 8192, 16384, -16384, -32768, 32767, 32767, -32768])  // interleaved, clamped
        #expect(decoded[0] == [0, 0.5, -1, Float(32767) / 32768])
        #expect(decoded[1] == [0.25, -0.5, Float(32767) / 32768, -1])
    }

    @Test func fixed824Conversion() throws {
        let (raw, decoded) = try roundTrip([[0, 1, -1, 0.000_1, 200]], through: .fixed824(sampleRate: 48_000, channels: 1))
        let words = raw[0].withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        #expect(words[0] == 0 && words[1] == 1 << 24 && words[2] == -(1 << 24))
        #expect(words[4] == Int32.max)  // 200 is beyond 8.24's ±128: clamped
        #expect(abs(decoded[0][3] - 0.000_1) < 1.0 / Float(1 << 24))
        #expect(decoded[0][1] == 1 && decoded[0][2] == -1)
    }

    @Test func floatAndPacked24BitConversion() throws {
        let values: [[Float]] = [[0.125, -0.75, 0.999], [0, 1, -1]]
        let float = try roundTrip(values, through: StreamFormat(sampleRate: 48_000, channels: 2, bitsPerChannel: 32, flags: [.isFloat]))
        #expect(float.decoded == values)
        let packed = try roundTrip(values, through: StreamFormat(sampleRate: 48_000, channels: 2, bitsPerChannel: 24, flags: [.isSignedInteger]))
        for (decodedChannel, expectedChannel) in zip(packed.decoded, values) {
            for (decoded, expected) in zip(decodedChannel, expectedChannel) {
                #expect(abs(decoded - expected) <= 1.0 / Float(1 << 23))
            }
        }
    }
}

@Suite struct RealTimeRingTests {
    @Test func fillsToCapacityAndKeepsOrder() {
        let ring = RealTimeRing<Int>(minimumCapacity: 5)
        #expect(ring.capacity == 8)
        for value in 0..<8 { #expect(ring.push(value)) }
        #expect(!ring.push(99))
        #expect((0..<8).map { _ in ring.pop() } == (0..<8).map { Optional($0) })
        #expect(ring.pop() == nil)
    }

    @Test func crossesThreadsWithoutLosingValues() async {
        let ring = RealTimeRing<Int>(minimumCapacity: 64)
        let count = 100_000
        async let produced: Void = Task.detached {
            var value = 0
            while value < count { if ring.push(value) { value += 1 } }
        }.value
        var expected = 0
        var ordered = true
        while expected < count {
            if let value = ring.pop() {
                ordered = ordered && value == expected
                expected += 1
            } else {
                await Task.yield()
            }
        }
        await produced
        #expect(ordered)
    }
}
