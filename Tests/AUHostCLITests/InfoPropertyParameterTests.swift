import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// `auhost info` lists a unit's property parameters: an LV2 plugin's path property
/// (x42 convoLV2's impulse response) and the sampler's sound bank, bank and program, in
/// text and in `--json`.
@Suite struct InfoPropertyParameterTests {
    static var convoInstalled: Bool { FileManager.default.fileExists(atPath: "/usr/lib/lv2/convo.lv2") }

    @Test("convoLV2's impulse response is listed as a writable path property", .enabled(if: convoInstalled, "x42-plugins (convoLV2)"))
    func lv2PathProperty() throws {
        let text = try runExecutable(["info", "lv2:http://gareus.org/oss/lv2/convoLV2#Mono"])
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.contains("property parameters:") && text.output.contains("impulse") && text.output.contains("[path]"), "\(text.output)")
        let json = try runExecutable(["info", "lv2:http://gareus.org/oss/lv2/convoLV2#Mono", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let properties = try #require(object["propertyParameters"] as? [[String: Any]], "\(json.output)")
        #expect(properties.contains { $0["identifier"] as? String == "impulse" }, "\(properties)")
    }

    @Test("the sampler lists soundbank, bank and program")
    func samplerProperties() throws {
        let text = try runExecutable(["info", "aumu:samp:AUHs"])
        #expect(text.status == 0, "\(text.errors)")
        for name in ["soundbank", "bank", "program"] { #expect(text.output.contains(name), "\(text.output)") }
    }
}
