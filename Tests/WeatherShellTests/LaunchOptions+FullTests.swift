import Testing
import Targets
import WeatherShell

/// The worker's command line, as the test runner writes it (`wsh test --worker FILE ...`).
@Suite struct LaunchOptionsFullTests {
    @Test func theRunnersWorkerLineIsReadWhole() throws {
        let arguments = ["test", "--worker", "dir/b c.wsh", "--var", "base=http://127.0.0.1:1", "--var", "n=1", "--stub"]
        guard case .run(let options) = LaunchOptions.fullParse(arguments) else {
            Issue.record("not run: \(LaunchOptions.fullParse(arguments))")
            return
        }
        let test = try #require(options.test)
        #expect(test.workerFile == "dir/b c.wsh")
        #expect(test.variables == ["base=http://127.0.0.1:1", "n=1"])
        #expect(test.stub && options.stub && options.noRC)
    }

    /// `wsh request METHOD URL` is `wsh METHOD URL`; a flag after `request` is no method.
    @Test func theRequestWordTakesAMethodAfterIt() {
        guard case .run(let options) = LaunchOptions.fullParse(["request", "propfind", "http://h/", "Depth:1"]) else {
            Issue.record("not run")
            return
        }
        #expect(options.request == ["PROPFIND", "http://h/", "Depth:1"])
        guard case .exit(let help) = LaunchOptions.fullParse(["request", "--help"]) else {
            Issue.record("not help: \(LaunchOptions.fullParse(["request", "--help"]))")
            return
        }
        #expect(help.contains("USAGE: wsh"))
    }

    @Test func aWorkerWithoutItsFileIsAUsageError() {
        guard case .usageError = LaunchOptions.fullParse(["test", "--worker"]) else {
            Issue.record("expected a usage error: \(LaunchOptions.fullParse(["test", "--worker"]))")
            return
        }
    }
}

/// The man page is written from `wsh --experimental-dump-help` (scripts/stage): it carries `serve`,
/// `test`, `fuzz` and `load` as subcommands with the options each one's own dump (what `wsh SUB
/// --help` prints) has, not the `help` subcommand wsh does not have (docs tester's F22).
@Suite struct ManualDumpTests {
    static func command(_ arguments: [String]) throws -> JSONValue {
        guard case .exit(let output) = LaunchOptions.fullParse(arguments) else {
            throw Failure(message: "not a dump: \(LaunchOptions.fullParse(arguments))")
        }
        return try #require(try JSONValue.parse(output)["command"], "\(output)")
    }

    struct Failure: Error { var message: String }

    static func names(_ command: JSONValue?) -> [String] {
        guard case .array(let arguments)? = command?["arguments"] else { return [] }
        return arguments.flatMap { argument -> [String] in
            guard case .array(let names)? = argument["names"] else { return [argument["valueName"]?.string ?? ""] }
            return names.compactMap { $0["name"]?.string }
        }
    }

    @Test func theManualCarriesEachSubcommandWithItsOwnOptions() throws {
        let root = try Self.command(["--experimental-dump-help"])
        guard case .array(let subcommands)? = root["subcommands"] else { Issue.record("no subcommands: \(root.prettyText)"); return }
        #expect(subcommands.compactMap { $0["commandName"]?.string } == ["serve", "test", "fuzz", "load"])
        for subcommand in subcommands {
            let name = subcommand["commandName"]?.string ?? ""
            let own = try Self.command([name, "--experimental-dump-help"])
            #expect(Self.names(subcommand) == Self.names(own) && !Self.names(own).isEmpty, "\(name)")
            #expect(subcommand["subcommands"] == nil, "no help subcommand in \(name)")
        }
        let options = Dictionary(uniqueKeysWithValues: subcommands.map { ($0["commandName"]?.string ?? "", Self.names($0)) })
        #expect(options["test"]?.contains("report-junit") == true && options["serve"]?.contains("port") == true, "\(options)")
        #expect(options["load"]?.contains("users") == true && options["load"]?.contains("threshold") == true, "\(options)")
        #expect(root["discussion"]?.string?.contains("4 failed expectation") == true)
        #expect(Self.names(root).contains("stub"))
    }
}
