import Foundation
import Targets
import Testing
@testable import WeatherShell

/// What a fuzz reproducer masks: the credentials the targets declare, not the values the fuzzer
/// made up for a field named like one, which the reproducer must send as they were.
@ShellActor @Suite struct FuzzReproducerTests {
    @Test func aGeneratedPasswordIsSentAsItWasAndADeclaredCredentialIsMasked() {
        let run = ShellHarness().run
        let declared = Redaction().including(secretsOf: Request(method: .get, url: "http://127.0.0.1:9/x?appid=DECLARED123"))
        let request = Request(method: .post, url: "http://127.0.0.1:9/x?appid=DECLARED123",
                              headers: [Header(name: "Content-Type", value: "application/json")],
                              body: Data(#"{"user":"ann","password":"GENERATED9"}"#.utf8))
        let curl = run.curl(for: request, declared) ?? ""
        #expect(curl.contains("GENERATED9"), "\(curl)")
        #expect(!curl.contains("DECLARED123") && curl.contains("appid=***"), "\(curl)")
        #expect(!declared.mask("GENERATED9 DECLARED123").contains("DECLARED123"))
        #expect(declared.mask("GENERATED9").contains("GENERATED9"), "a made-up value is not masked elsewhere in the report")
    }
}
