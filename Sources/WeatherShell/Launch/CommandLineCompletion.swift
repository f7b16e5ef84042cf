import Foundation

/// What Tab offers for the words of a `wsh` command line, in bash, zsh and fish alike (the
/// scripts that `wsh --generate-completion-script SHELL` writes ask `wsh` itself). `serve` and
/// `test` are parsed apart from ``WSHCommand`` (its FILE would take them first), so the script
/// knows them only through this.
enum CommandLineCompletion {
    /// The candidates for the word being typed, `word`, when the words before it on the line
    /// are `before` (without `wsh` and its options).
    static func candidates(before: [String], word: String) -> [String] {
        offered(before: before, word: word).filter(isSafeForShells)
    }

    /// Whether a candidate can go to the shells as it is: bash's completion script passes the list
    /// to `compgen -W`, which expands `$(...)`, `$VAR` and backquotes in each word (a file named
    /// `a$(touch x).wsh` would run a command at Tab), and zsh's splits at `:`. A name with any
    /// other character than these is left out: type it, or complete it with the shell's own paths.
    static func isSafeForShells(_ candidate: String) -> Bool {
        candidate.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x7F || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "._-/+,@%=".unicodeScalars.contains(scalar)
        }
    }

    private static func offered(before: [String], word: String) -> [String] {
        switch before.first {
        case nil: return (["serve", "test", "fuzz", "load"] + scripts(word)).filter { $0.hasPrefix(word) }
        case "serve": return ((word.contains("/") ? [] : BundledPacks.names) + scripts(word)).filter { $0.hasPrefix(word) }
        case "test", "fuzz", "load": return scripts(word)
        default: return []
        }
    }

    /// The `.wsh` files and the directories in the directory `word` points into, starting with `word`.
    static func scripts(_ word: String) -> [String] {
        Completion.paths(word, directory: FileManager.default.currentDirectoryPath).filter { $0.hasSuffix("/") || $0.hasSuffix(".wsh") || Run.isHTTPFile($0) }
    }

    /// The positional words before the one at `index` in `arguments` (the command line as the
    /// completion script passes it, `wsh` first), without options and their values.
    static func positionals(_ arguments: [String], before index: Int) -> [String] {
        var words: [String] = []
        var skipValue = false
        for argument in arguments.prefix(index).dropFirst() {
            if skipValue { skipValue = false; continue }
            if argument.hasPrefix("-") {
                skipValue = ["-c", "--var", "--secret"].contains(argument)
                continue
            }
            words.append(argument)
        }
        return words
    }
}
