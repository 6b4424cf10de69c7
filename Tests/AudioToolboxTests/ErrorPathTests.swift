import AudioToolbox
import Testing

@Suite struct AudioToolboxErrorPathTests {
    @Test func placeholder() {}
}
