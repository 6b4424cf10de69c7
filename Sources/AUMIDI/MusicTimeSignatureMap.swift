/// The time-signature map of a tempo track: beats (quarter notes) <-> bar:beat:subbeat.
/// 4/4 until the first time-signature meta event (one at or before beat 0 holds from the
/// start). A bar is `numerator * 4 / denominator` quarter notes; a change that falls inside a
/// bar starts a new bar there (the cut bar still counts as a bar). Signatures with a
/// numerator of 0 or a denominator finer than 1/64 are ignored; of several at one time, the
/// last counts. Times before 0 use the first signature (bars below 1).
/// - Thread: [any]
public struct MusicTimeSignatureMap: Sendable, Hashable {
    /// A stretch of one time signature.
    package struct Segment: Sendable, Hashable {
        var startBeat: MusicTimeStamp
        var startBar: Int
        var numerator: Int
        /// Quarter notes per signature beat: 4 / denominator.
        var beatLength: Double
        var barLength: Double { Double(numerator) * beatLength }
    }

    /// The segments, by start; the first starts at beat 0, bar 1.
    package let segments: [Segment]

    /// The map of `tempoTrack`'s time-signature meta events.
    /// - Thread: [any]
    public init(tempoTrack: MusicTrack) {
        var segments = [Segment(startBeat: 0, startBar: 1, numerator: 4, beatLength: 1)]
        for trackEvent in tempoTrack.events {
            guard case .meta(.timeSignature(let signature)) = trackEvent.event,
                  signature.numerator > 0, signature.denominatorPower <= 6
            else { continue }
            let beatLength = 4 / Double(signature.denominator)
            let last = segments[segments.count - 1]
            let beat = max(trackEvent.timeStamp, 0)
            if beat <= last.startBeat {
                segments[segments.count - 1].numerator = Int(signature.numerator)
                segments[segments.count - 1].beatLength = beatLength
            } else {
                let bars = ((beat - last.startBeat) / last.barLength - 1e-9).rounded(.up)
                let startBar = last.startBar &+ Int(Int64(clamping: bars, rounding: .up))
                segments.append(Segment(startBeat: beat, startBar: startBar,
                                        numerator: Int(signature.numerator), beatLength: beatLength))
            }
        }
        self.segments = segments
    }

    /// The time signature in force at `beats`: numerator and denominator.
    /// - Thread: [any]
    public func timeSignature(atBeats beats: MusicTimeStamp) -> (numerator: Int, denominator: Int) {
        let segment = segments[segmentIndex(forBeats: beats)]
        return (segment.numerator, Int((4 / segment.beatLength).rounded()))
    }

    /// The last segment starting at or before `beats` (the first when none does).
    private func segmentIndex(forBeats beats: MusicTimeStamp) -> Int {
        segments[1...].partitioningIndex { $0.startBeat > beats } - 1
    }

    /// The last segment starting at or before `bar` (the first when none does).
    private func segmentIndex(forBar bar: Int) -> Int {
        segments[1...].partitioningIndex { $0.startBar > bar } - 1
    }

    /// The bar, beat and subbeat at `beats`; `subbeatDivisor` is clamped to 1-65535. A position
    /// within 1e-6 subbeat below a whole subbeat counts as that subbeat; otherwise subbeats
    /// round down.
    /// - Thread: [any]
    public func barBeatTime(forBeats beats: MusicTimeStamp, subbeatDivisor: Int) -> CABarBeatTime {
        let divisor = min(max(subbeatDivisor, 1), 65535)
        let segment = segments[segmentIndex(forBeats: beats)]
        let subbeats = (beats - segment.startBeat) / segment.beatLength * Double(divisor)
        let nearest = subbeats.rounded()
        let total = Int64(clamping: abs(subbeats - nearest) <= 1e-6 ? nearest : subbeats,
                          rounding: .down)
        let perBar = Int64(segment.numerator * divisor)
        let (bars, inBar) = Self.floorDivide(total, perBar)
        return CABarBeatTime(
            bar: segment.startBar &+ Int(bars),
            beat: Int(inBar / Int64(divisor)) + 1,
            subbeat: Int(inBar % Int64(divisor)),
            subbeatDivisor: divisor)
    }

    /// Beats at `barBeatTime` (beat and subbeat may overflow their bar: they are added on).
    /// - Thread: [any]
    public func beats(for barBeatTime: CABarBeatTime) -> MusicTimeStamp {
        let segment = segments[segmentIndex(forBar: barBeatTime.bar)]
        let divisor = Double(min(max(barBeatTime.subbeatDivisor, 1), 65535))
        return segment.startBeat
            + Double(barBeatTime.bar &- segment.startBar) * segment.barLength
            + Double(barBeatTime.beat &- 1) * segment.beatLength
            + Double(barBeatTime.subbeat) / divisor * segment.beatLength
    }

    /// Where `beats` (quarter notes) falls in `segments`, as a transport counts it: the bar
    /// from 0, the beat within it (fractional, in the signature's beats, from 0), beats per
    /// bar and the beat's note value, and the factor from quarter notes to signature beats.
    /// - Thread: [render] No allocation.
    package static func transportPosition(atBeats beats: MusicTimeStamp, in segments: UnsafeBufferPointer<Segment>)
        -> (bar: Int, beatInBar: Double, beatsPerBar: Int, beatUnit: Int, beatsPerQuarter: Double) {
        let segment = segments[partitioningIndex(count: segments.count - 1) { segments[$0 + 1].startBeat > beats }]
        let bars = ((beats - segment.startBeat) / segment.barLength).rounded(.down)
        let inBar = (beats - segment.startBeat - bars * segment.barLength) / segment.beatLength
        return (segment.startBar - 1 + Int(Int64(clamping: bars, rounding: .down)), inBar, segment.numerator,
                Int((4 / segment.beatLength).rounded()), 1 / segment.beatLength)
    }

    /// Quotient and remainder rounded toward minus infinity (`divisor` > 0).
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
