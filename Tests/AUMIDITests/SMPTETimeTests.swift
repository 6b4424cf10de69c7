import AUMIDI
import Testing

@Suite("SMPTE time")
struct SMPTETimeTests {
    /// The timecode of `frameCount` as text.
    func label(_ frameCount: Int64, _ type: SMPTETimeType) throws -> String {
        try SMPTETime(frameCount: frameCount, type: type).description
    }

    @Test("drop frame skips frames 0 and 1 of each minute but every tenth")
    func dropFrameBoundaries() throws {
        #expect(try label(1799, .type2997Drop) == "00:00:59;29")
        #expect(try label(1800, .type2997Drop) == "00:01:00;02")
        #expect(try label(17_981, .type2997Drop) == "00:09:59;29")
        #expect(try label(17_982, .type2997Drop) == "00:10:00;00")
        #expect(try label(17_983, .type2997Drop) == "00:10:00;01")
        #expect(try label(17_982 + 1800, .type2997Drop) == "00:11:00;02")
        #expect(try label(6 * 17_982 - 1, .type2997Drop) == "00:59:59;29")
        #expect(try label(6 * 17_982, .type2997Drop) == "01:00:00;00")
        // Non-drop 29.97 numbers the same frames as 30 fps.
        #expect(try label(1800, .type2997) == "00:01:00:00")
        #expect(try label(17_982, .type2997) == "00:09:59:12")
    }

    @Test("every frame of the first 11 minutes and the last of the day round-trips", arguments: SMPTETimeType.allCases)
    func frameCountRoundTrip(type: SMPTETimeType) throws {
        var previous: SMPTETime?
        let ranges = [Int64(0)..<Int64(30 * 60 * 11), (type.framesPerDay - 2000)..<type.framesPerDay]
        for count in ranges.joined() {
            let time = try SMPTETime(frameCount: count, type: type)
            #expect(time.frameCount == count)
            let parsed = try SMPTETime(parsing: time.description, type: type)
            #expect(parsed == time)
            #expect(try SMPTETime(seconds: time.timeInSeconds, type: type) == time)
            if let previous, previous.frameCount + 1 == count {
                #expect(previous.description < time.description, "\(previous) then \(time)")
            }
            previous = time
        }
    }

    @Test("hours roll over at 24 hours")
    func hoursRollover() throws {
        #expect(try label(108_000 - 1, .type30) == "00:59:59:29")
        #expect(try label(108_000, .type30) == "01:00:00:00")
        #expect(try label(SMPTETimeType.type25.framesPerDay - 1, .type25) == "23:59:59:24")
        #expect(try label(SMPTETimeType.type25.framesPerDay, .type25) == "00:00:00:00")
        #expect(try label(SMPTETimeType.type2997Drop.framesPerDay - 1, .type2997Drop) == "23:59:59;29")
        #expect(try label(SMPTETimeType.type2997Drop.framesPerDay + 1800, .type2997Drop) == "00:01:00;02")
        #expect(try SMPTETime(seconds: 86_400 + 1.5, type: .type24).description == "00:00:01:12")
    }

    @Test("seconds to SMPTE and back, subframes included")
    func secondsConversions() throws {
        let time = try SMPTETime(seconds: 3723.5, type: .type25)  // 1 h 2 min 3.5 s
        #expect(time.description == "01:02:03:12")
        #expect(time.subframes == 40)
        #expect(time.timeInSeconds == 3723.5)
        // One frame at 29.97 is 1001/30000 s; the frame count of an hour of wall clock.
        #expect(try SMPTETime(seconds: 1001.0 / 30000, type: .type2997Drop).frameCount == 1)
        #expect(try SMPTETime(seconds: 3600, type: .type2997Drop).description == "01:00:00;00")
        #expect(try SMPTETime(seconds: 3600.0 * 1001 / 1000, type: .type2997Drop).description == "01:00:03;18")
        #expect(try SMPTETime(seconds: 3600.0 * 1001 / 1000, type: .type2997).description == "01:00:00:00")
        #expect(try SMPTETime(frameCount: 107_892, type: .type2997Drop).timeInSeconds == 107_892 * 1001.0 / 30000)
        #expect(try SMPTETime(seconds: 0.5, type: .type30, subframeDivisor: 100).subframes == 0)
        #expect(try SMPTETime(seconds: 0.51, type: .type30, subframeDivisor: 100).subframes == 30)
    }

    @Test("invalid input is refused with a clear error")
    func refusals() {
        #expect(throws: SMPTETimeError.secondsOutOfRange(-0.5)) { try SMPTETime(seconds: -0.5, type: .type25) }
        #expect(throws: SMPTETimeError.self) { try SMPTETime(seconds: .nan, type: .type25) }
        #expect(throws: SMPTETimeError.negativeFrameCount(-1)) { try SMPTETime(frameCount: -1, type: .type30) }
        #expect(throws: SMPTETimeError.fieldOutOfRange(field: "frames", value: 25, range: 0...24)) {
            try SMPTETime(type: .type25, hours: 0, minutes: 0, seconds: 0, frames: 25)
        }
        #expect(throws: SMPTETimeError.droppedFrame(hours: 0, minutes: 1, frames: 0)) {
            try SMPTETime(type: .type2997Drop, hours: 0, minutes: 1, seconds: 0, frames: 0)
        }
        #expect((try? SMPTETime(type: .type2997Drop, hours: 0, minutes: 10, seconds: 0, frames: 0)) != nil)
        #expect((try? SMPTETime(type: .type2997, hours: 0, minutes: 1, seconds: 0, frames: 0)) != nil)
        for text in ["00:00:00;00", "0:00:00:00", "00:00:00:0x", "00-00-00:00", "24:00:00:00", ""] {
            #expect(throws: SMPTETimeError.self, "\(text)") { try SMPTETime(parsing: text, type: .type30) }
        }
        #expect(throws: SMPTETimeError.unreadable(text: "00:00:01:02", expected: "HH:MM:SS;FF (29.97 drop frame)")) {
            try SMPTETime(parsing: "00:00:01:02", type: .type2997Drop)
        }
        #expect(SMPTETimeError.droppedFrame(hours: 0, minutes: 1, frames: 1).description
            == "frame 1 of minute 1 is dropped in 29.97 drop-frame timecode; expected frames 2-29 at second 0 of a minute not divisible by 10")
    }
}
