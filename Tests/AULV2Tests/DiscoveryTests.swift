import AUCore
import Testing
@testable import AULV2

@Suite struct DiscoveryTests {
    @Test func findsInstalledPlugins() {
        let found = LV2Provider(probeCacheFile: nil).discoverComponents()
        #expect(found.components.count > 100)
    }
}
