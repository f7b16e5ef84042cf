import Foundation
import TestSupport
import Targets
import WeatherShell

/// Temporary directories, environment secrets and file reading for the `save` and `set record` tests.
enum SessionFiles {
    /// A new empty directory.
    static func temporaryDirectory() throws -> URL {
        try ScratchDirectory.make("wsh-session")
    }

    /// A secret in the environment under a name no other test uses: `let key = env NAME` reads it.
    static func secretInEnvironment() -> (name: String, value: String) {
        let name = "WSH_SESSION_KEY_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
        let value = "session-key-\(UUID().uuidString)"
        // Not setenv: it races with other tests starting processes (a crash inside Process.run).
        EnvironmentOverlay.define(name, value)
        return (name, value)
    }

    /// The forms of `secret` that `text` shows, if any.
    static func leaks(of secret: String, in text: String) -> [String] {
        SecretForms.of(secret).filter { text.contains($0) }
    }

    /// The file's text; empty when it cannot be read.
    static func read(_ url: URL) -> String {
        (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }
}
