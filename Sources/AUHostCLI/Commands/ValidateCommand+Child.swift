import AUHost
import AUValidate
import Foundation

/// The child side of `auhost validate`: `auhost validate --child --format F --identifier ID
/// [settings] -- TEST…` runs each test on the unit in this process and reports it on the
/// private channel (`auhost-probe begin N`, then `auhost-probe verdict N PASS|WARN|FAIL|SKIP
/// SECONDS message`), as the probe children do (``ProbeChannel``).
extension ValidateCommand {
    static func runChild(_ arguments: inout Arguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        let format = try arguments.option("--format", expected: "lv2, native or builtin", ComponentFormat.init(rawValue:))
        let identifier = try arguments.option("--identifier")
        let settings = try parseSettings(&arguments, seedDefault: 1)
        let names = try arguments.finish(positionals: 1...Int.max, names: "test names")
        guard let format, let identifier else { throw .usage("--child needs --format and --identifier", command: name) }
        guard let descriptor = context.output.fileDescriptor else { throw CLIError("\(name) --child writes its results to a file descriptor") }
        let channel = ProbeChannel(descriptor: descriptor)
        let registry = ComponentRegistry(providers: HostRegistry.providers().filter { $0.format == format })
        let component = registry.components.first { $0.identifier == identifier }
        for (index, name) in names.enumerated() {
            channel.begin(index)
            let started = Date()
            let result: ValidationResult
            if let component, let test = ValidationCatalogue.test(named: name) {
                result = test.run(on: component, settings: settings)
            } else {
                result = ValidationResult(.fail, component == nil ? "no \(format.rawValue) unit \(identifier)" : "no test named \(name)")
            }
            channel.verdict(index, result.words(seconds: Date().timeIntervalSince(started)))
        }
        return 0
    }
}
