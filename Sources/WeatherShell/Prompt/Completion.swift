import Foundation
import Targets

/// Tab completion: which words fit the word before the cursor.
enum Completion {
    /// The word being typed: the text after the last blank, line break, `;`, `{` or `}` that is not
    /// inside a string, so an open `"dir with sp` is one word, as the lexer will read it.
    static func currentWord(_ before: String) -> String {
        let chars = Array(before)
        var start = 0
        var quote: Character?
        var escaped = false
        for (index, char) in chars.enumerated() {
            if let open = quote {
                if escaped {
                    escaped = false
                } else if open == "\"", char == "\\" {
                    escaped = true
                } else if char == open {
                    quote = nil
                }
            } else if char == "\"" || char == "'" {
                quote = char
            } else if " \t\n;}".contains(char) || (char == "{" && (index == 0 || chars[index - 1] != "$")) {
                start = index + 1
            }
        }
        return String(chars[start...])
    }

    /// The text a word being typed stands for, and the quote it opens: `"dir with sp` is
    /// `dir with sp` in `"`, `'a b` is `a b` in `'`; a word that opens no string is itself.
    static func unquoted(_ word: String) -> (text: String, quote: Character?) {
        guard let quote = word.first, quote == "\"" || quote == "'" else { return (word, nil) }
        var text = ""
        var escaped = false
        for char in word.dropFirst() {
            if escaped {
                text.append(["n": "\n", "t": "\t", "r": "\r"][char] ?? char)
                escaped = false
            } else if quote == "\"", char == "\\" {
                escaped = true
            } else if char == quote {
                break
            } else {
                text.append(char)
            }
        }
        return (text, quote)
    }

    /// The quote a completed word leaves open (`"dir with space/a.wsh`), to close once the word is whole.
    static func openQuote(of word: String) -> Character? {
        guard let quote = unquoted(word).quote else { return nil }
        return currentWord(word + " ") == "" ? nil : quote
    }

    /// Whether a candidate completes what the word typed so far stands for: `"dir with space/`
    /// completes `dir` as it completes `"di`.
    static func fits(_ candidate: String, _ word: String) -> Bool {
        candidate.hasPrefix(word) || unquoted(candidate).text.hasPrefix(unquoted(word).text)
    }

    /// A path as one word of wsh's language: as it is when the lexer reads it so, else in a `"`
    /// string left open (the completion closes it once the word is whole), or in the `'` the
    /// user opened. `"`, `\` and `$` are escaped in a `"` string, as the lexer reads it.
    static func written(_ path: String, quote: Character?) -> String {
        if quote == "'", !path.contains("'"), !path.unicodeScalars.contains(where: \.isASCIIControl) { return "'" + path }
        let plain = path.unicodeScalars.allSatisfy { !$0.isASCIIControl && !" ;{}|#\"'$\\".unicodeScalars.contains($0) }
        guard quote != nil || !plain else { return path }
        var text = "\""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "\"", "\\", "$": text += "\\" + String(scalar)
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case let control where control.isASCIIControl: text += String(format: "\\u%04X", control.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// The words of the statement being typed, before the current word. Text inside `"..."` and
    /// `'...'` is part of its word: a `;`, `{` or blank there neither ends the statement nor splits
    /// the word; nor does `;type=` written against a word (`f@a.raw;type=image/png`), as the lexer reads it.
    static func previousWords(_ before: String) -> [String] {
        let chars = Array(before)
        var words: [String] = []
        var word = ""
        var quote: Character?
        var inVariable = false
        for (index, char) in chars.enumerated() {
            let previous: Character = index > 0 ? chars[index - 1] : " "
            if let open = quote {
                if char == open, !(open == "\"" && previous == "\\") { quote = nil }
                word.append(char)
            } else if char == "\"" || char == "'" {
                quote = char
                word.append(char)
            } else if char == "{", previous == "$" {
                inVariable = true
                word.append(char)
            } else if char == "}", inVariable {
                inVariable = false
                word.append(char)
            } else if char == ";", !word.isEmpty, chars[index...].starts(with: ";type=") {
                word.append(char)
            } else if "{};\n".contains(char) {
                words = []
                word = ""
            } else if char == " " || char == "\t" {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(char)
            }
        }
        return words
    }

    /// A `{` block still open: the words before it (`["target", "t"]`), and the state fields it
    /// has declared so far with `true` or `false`, what an `unless` in a reactor may read.
    struct OpenBlock {
        var opening: [String]
        var booleanFields: [String] = []
    }

    /// Each `{` block still open in `text`, outermost first: `[["target", "t"]]` inside
    /// `target t {`. Read by the lexer, so strings, comments, `${name}` and path templates
    /// (`/items/{id}`) open nothing; empty when the text does not lex.
    static func openBlocks(_ text: String) -> [OpenBlock] {
        var lexer = Lexer(file: SourceFile(name: "<completion>", directory: "", text: text))
        guard let tokens = try? lexer.tokenize() else { return [] }
        var blocks: [OpenBlock] = []
        var words: [String] = []
        for token in tokens {
            if case .word(let word) = token {
                words.append(word.literal ?? "")
                continue
            }
            if words.first == "state", !blocks.isEmpty {
                for index in words.indices.dropLast(2) where words[index + 1] == "=" {
                    let value = words[index + 2].hasSuffix(",") ? String(words[index + 2].dropLast()) : words[index + 2]
                    if value == "true" || value == "false" { blocks[blocks.count - 1].booleanFields.append(words[index]) }
                }
            }
            switch token {
            case .openBrace:
                blocks.append(OpenBlock(opening: words))
                words = []
            case .closeBrace:
                _ = blocks.popLast()
                words = []
            case .end: words = []
            case .word, .pipe, .endOfInput: break
            }
        }
        return blocks
    }

    /// Header names offered after `header` in a target block and for a call argument that starts
    /// with a capital letter, as a header does: the request headers an API call most often sets.
    static let headerNames = ["Accept", "Accept-Encoding", "Accept-Language", "Authorization", "Cache-Control",
                              "Content-Type", "Cookie", "If-Match", "If-Modified-Since", "If-None-Match", "Origin",
                              "Prefer", "Range", "Referer", "User-Agent", "X-API-Key", "X-Request-ID"]

    /// The values `validate` takes by name (it takes status codes too: `validate 200,201`).
    static let validateValues = ["none", "2xx", "2xx-3xx", "schema"]

    /// Completions inside the open block `block`, for a statement whose words so far are
    /// `previous`; nil where statements complete as at the prompt (an action's body, `if`, `for`).
    static func blockCompletions(_ block: OpenBlock, previous: [String]) -> [String]? {
        switch block.opening.first {
        case "target":
            guard let field = previous.first else { return TargetDeclaration.fieldNames }
            switch field {
            case "method" where previous.count == 1: return Parser.methods
            case "validate" where previous.count == 1: return validateValues
            case "header": return headerNames.map { $0 + ":" }
            default: return []
            }
        case "reactor" where previous.isEmpty:
            return ["state", "action"]
        case "reactor" where previous.first == "action" && previous.last == "unless":
            return block.booleanFields
        case "reactor":
            return []
        default:
            return nil
        }
    }

    static func commonPrefix(_ words: [String]) -> String {
        guard var prefix = words.first else { return "" }
        for word in words.dropFirst() {
            while !word.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }

    /// A space follows a finished word, not a directory or a `key=` still waiting for its value.
    static func needsSpace(after word: String) -> Bool {
        !(word.hasSuffix("/") || word.hasSuffix("=") || word.hasSuffix(":"))
    }

    /// Candidates laid out in columns for a terminal `columns` wide.
    static func columns(_ words: [String], width columns: Int = 80) -> String {
        let width = (words.map(\.count).max() ?? 0) + 2
        let perLine = max(1, columns / width)
        var out = ""
        for (index, word) in words.enumerated() {
            out += (index % perLine == perLine - 1 || index == words.count - 1) ? word + "\n" : word.padding(width)
        }
        return out
    }

    /// Candidates as a list shows them: paths in one directory by their names there, as bash and
    /// zsh list them (`zip`, not `/usr/bin/zip`); others as they are. Paths are known by the
    /// directory their shared start names (before an `@` of a file item), which must exist.
    static func shownNames(_ candidates: [String], directory: String) -> [String] {
        let common = commonPrefix(candidates)
        guard let slash = common.lastIndex(of: "/") else { return candidates }
        let shared = common[...slash]
        let path = unquoted(String(shared.lastIndex(of: "@").map { shared[shared.index(after: $0)...] } ?? shared)).text
        var folder = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        if path.hasPrefix("~/") { folder = Environment.home + path.dropFirst() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else { return candidates }
        return candidates.map { String($0.dropFirst(shared.count)) }
    }

    /// File and directory names completing `typed` (a path, or one in an open string: `"dir with sp`),
    /// relative to `directory`, each written as one word (``written(_:quote:)``): `"dir with space/`.
    static func paths(_ typed: String, directory: String) -> [String] {
        let (partial, quote) = unquoted(typed)
        let slash = partial.lastIndex(of: "/")
        let dirPart = slash.map { String(partial[...$0]) } ?? ""
        let namePart = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
        var base = dirPart.hasPrefix("/") ? dirPart : (directory as NSString).appendingPathComponent(dirPart)
        if dirPart.hasPrefix("~/") { base = Environment.home + dirPart.dropFirst() }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base.isEmpty ? "." : base) else { return [] }
        return names.filter { $0.hasPrefix(namePart) && (namePart.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { name in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: (base as NSString).appendingPathComponent(name), isDirectory: &isDirectory)
            return written(dirPart + name + (isDirectory.boolValue ? "/" : ""), quote: quote)
        }
    }
}

extension CompletionSnapshot {
    /// Completions of the last word of `before` (the line up to the cursor).
    public func completions(for before: String) -> [String] {
        let word = Completion.currentWord(before)
        let previous = Completion.previousWords(before)
        var candidates: [String]
        if let dollar = word.lastIndex(of: "$") {
            let head = String(word[..<dollar])
            let partial = word[word.index(after: dollar)...]
            let braced = partial.hasPrefix("{")
            let name = braced ? partial.dropFirst() : partial
            return variables.filter { $0.hasPrefix(name) }.map { head + (braced ? "${\($0)}" : "$\($0)") }
        }
        // `before` may hold the lines of an open block before the one being typed.
        let blocks = Completion.openBlocks(String(before.dropLast(word.count)))
        if let block = blocks.last, let inBlock = Completion.blockCompletions(block, previous: previous) {
            return inBlock.filter { $0.hasPrefix(word) }
        }
        // A file item: `@item.json`, `doc@note.txt`, `text=@note.txt`.
        if let command = previous.first, command == "call" || RequestStatement.commands.contains(command), previous.count >= 2,
           let at = word.firstIndex(of: "@") {
            let head = String(word[...at])
            return Completion.paths(String(word[word.index(after: at)...]), directory: directory).map { head + $0 }
        }
        // `call NAME key=<Tab>`: the values the OpenAPI document allows.
        if previous.first == "call", previous.count >= 2, let equals = word.firstIndex(of: "="),
           let values = parameterDocs[previous[1]]?[String(word[..<equals])]?.enumValues, !values.isEmpty {
            let key = String(word[...equals])
            return values.map { key + $0 }.filter { $0.hasPrefix(word) }
        }
        if let name = previous.first, let command = CommandCatalog.command(named: name),
           let offered = command.completions(after: previous, word: word, in: self) {
            return offered.filter { Completion.fits($0, word) }
        }
        switch previous.first {
        case nil:
            // In a block inside a reactor (an action's body, its catch, an if in them): `emit` too.
            candidates = commands + (blocks.contains { $0.opening.first == "reactor" } ? ["emit"] : [])
        case "request" where previous.count == 1:
            candidates = HTTPMethod.allCases.map(\.rawValue) + ["PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "PURGE", "TRACE"]
        case let command? where RequestStatement.commands.contains(command) && word.first?.isUppercase == true:
            candidates = Completion.headerNames.map { $0 + ":" }
        case "set" where previous.count == 1:
            candidates = ShellOption.names
        case "set" where previous.count == 2 && previous[1] == ShellOption.record.rawValue:
            return ShellOption.record.choices.filter { $0.hasPrefix(word) } + Completion.paths(word, directory: directory)
        case "set" where previous.count == 2 && previous[1] == ShellOption.env.rawValue:
            // Read from disk when Tab asks: the files can change while the prompt runs.
            candidates = EnvironmentFiles.names(in: environmentDirectory) + ["off"]
        case "set" where previous.count == 2:
            candidates = ShellOption(rawValue: previous[1])?.choices ?? []
        case "source" where previous.count == 1:
            return Completion.paths(word, directory: directory)
        case "help" where previous.count == 1:
            candidates = CommandCatalog.names
        case "unset":
            candidates = variables
        case "call" where previous.count >= 2 && word.first?.isUppercase == true:
            // A call argument written like a header (`Accept:...`) is one.
            candidates = argumentCompletions(previous) + Completion.headerNames.map { $0 + ":" }
        default:
            candidates = argumentCompletions(previous)
        }
        return candidates.filter { $0.hasPrefix(word) }
    }

    /// Completions after the first word of other commands.
    func argumentCompletions(_ previous: [String]) -> [String] {
        switch previous[0] {
        case "call" where previous.count == 1:
            return targetNames
        case "call":
            guard let parameters = targetParameters[previous[1]] else { return [] }
            let given = Set(previous.dropFirst(2).compactMap { $0.split(separator: "=").first.map(String.init) })
            return parameters.filter { !given.contains($0) }.map { $0 + "=" }
        case let name where previous.count == 2 && BuiltInReactor.named(name)?.argumentCompletions[previous[1]] != nil:
            return BuiltInReactor.named(name)?.argumentCompletions[previous[1]] ?? []
        case let name where previous.count == 1 && (reactorActions[name] != nil || BuiltInReactor.named(name) != nil):
            return reactorActions[name] ?? BuiltInReactor.named(name)?.actions ?? []
        case "plugin":
            return pluginCompletions(after: Array(previous.dropFirst()))
        default:
            return []
        }
    }
}
