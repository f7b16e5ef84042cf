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

    /// bash's completion script expands each candidate (`compgen -W`): a file named to run a
    /// command at Tab is never offered, nor one with a character zsh splits at.
    @Test func aNameTheShellsWouldExpandIsNotOffered() throws {
        let folder = try ScratchDirectory.make("wsh-completion-names").path + "/"
        for name in ["a$(touch PWNED).wsh", "b`id`.wsh", "c:d.wsh", "d;e.wsh", "ok-1_2.wsh", "서울.wsh"] {
            FileManager.default.createFile(atPath: folder + name, contents: Data())
        }
        #expect(CommandLineCompletion.candidates(before: [], word: folder).map { String($0.dropFirst(folder.count)) } == ["ok-1_2.wsh", "서울.wsh"])
    }

    @Test func optionsAndTheirValuesAreNotPositionals() {
        #expect(CommandLineCompletion.positionals(["wsh", "--stub", "--var", "a=1", "serve", "x"], before: 5) == ["serve"])
        #expect(CommandLineCompletion.positionals(["wsh", "-c", "echo", ""], before: 3) == [])
    }
}
