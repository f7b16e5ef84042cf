import Testing
@testable import WeatherShell

/// The `env NAME`s a test file names are found in its text as it is, also where it does not parse.
@Suite struct NamedEnvironmentTests {
    @Test func theNamesAfterEnvAreFoundButOnAPublicLine() {
        let text = """
            let k = env API_KEY
            let base = env API_BASE public
            \tlet t = env "TOKEN_2" or "x"
            expect "a" == "b" ((
            let n = env $other
            let k2 = env API_KEY
            echo env
            """
        #expect(NamedEnvironment.names(in: text) == ["API_KEY", "TOKEN_2"])
    }
}
