import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// What the completion scripts of bash, zsh and fish offer on a `wsh` command line (they ask
/// `wsh ---completion`, which asks ``CommandLineCompletion``); scripts/check-deb types Tab in
/// each shell against the installed package.
@Suite struct CommandLineCompletionTests {
    func folder() throws -> String {
        let folder = try ScratchDirectory.make("wsh-completion")
        for file in ["a.wsh", "b.txt", "tests/c.wsh", ".hidden.wsh"] {
            let url = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: url)
        }
        return folder.path + "/"
    }

    @Test func theFirstWordIsServeTestOrAScript() throws {
        let folder = try folder()
        #expect(CommandLineCompletion.candidates(before: [], word: "se") == ["serve"])
        #expect(CommandLineCompletion.candidates(before: [], word: folder) == [folder + "a.wsh", folder + "tests/"])
        #expect(CommandLineCompletion.candidates(before: [], word: folder + "tests/") == [folder + "tests/c.wsh"])
        #expect(CommandLineCompletion.candidates(before: [], word: folder + ".h") == [folder + ".hidden.wsh"], "a dot asks for hidden files")
    }

    @Test func serveTakesPacksAndScriptsAndTestTakesScripts() throws {
        let folder = try folder()
        #expect(CommandLineCompletion.candidates(before: ["serve"], word: "open") == ["open-meteo", "openweathermap"])
        #expect(CommandLineCompletion.candidates(before: ["serve", "x.wsh"], word: folder + "a") == [folder + "a.wsh"])
        #expect(CommandLineCompletion.candidates(before: ["test"], word: folder) == [folder + "a.wsh", folder + "tests/"])
        #expect(CommandLineCompletion.candidates(before: ["test"], word: "open").isEmpty)
        #expect(CommandLineCompletion.candidates(before: ["script.wsh"], word: "").isEmpty, "NAME=VALUE after a script")
    }

    @Test func optionsAndTheirValuesAreNotPositionals() {
        #expect(CommandLineCompletion.positionals(["wsh", "--stub", "--var", "a=1", "serve", "x"], before: 5) == ["serve"])
        #expect(CommandLineCompletion.positionals(["wsh", "-c", "echo", ""], before: 3) == [])
    }
}
