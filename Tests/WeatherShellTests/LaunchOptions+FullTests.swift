import Testing
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

    @Test func aWorkerWithoutItsFileIsAUsageError() {
        guard case .usageError = LaunchOptions.fullParse(["test", "--worker"]) else {
            Issue.record("expected a usage error: \(LaunchOptions.fullParse(["test", "--worker"]))")
            return
        }
    }
}
