import Foundation
import Targets

/// Requests as a `.http` file writes them (JetBrains HTTP Client, VS Code REST Client): a `###`
/// title, `# @name`, the request line, headers, a blank line and the body. What wsh reads back with
/// `use http` or runs with `wsh FILE.http` sends the same request.
enum HTTPFileWriter {
    /// One request: its text, with `placeholders` (a value and the `{{...}}` that stands for it:
    /// a required parameter, a secret) written as their `{{...}}`, percent-encoded forms too, and
    /// a literal `{{` written so that the file sends it (``literalBraces(_:openBrace:)``, with the
    /// variable `openBrace`) unless `escapingBraces` is false (to look for secrets in the text as sent).
    /// `mask` hides what secrets are left in the request's values: not in the placeholders' names
    /// (`{{password}}` for the password `password`), the request's name or its headers' names.
    static func request(name: String, summary: String?, request: Request, followsRedirects: Bool,
                        placeholders: [(value: String, written: String)], openBrace: String, escapingBraces: Bool = true,
                        mask: (String) -> String = { $0 }) -> String {
        func placed(_ text: String) -> String {
            // Each value first becomes a token (NUL, which no text written here holds, around its
            // number), so that a value holding `{{` is found before braces are escaped, and the
            // mask does not reach what stands for it.
            var text = text
            var tokens: [(token: String, written: String)] = []
            for (value, written) in placeholders where !value.isEmpty {
                let token = "\u{0}\(tokens.count)\u{0}"
                text = text.replacingOccurrences(of: value, with: token)
                let encoded = PercentEncoding.encode(value)
                if encoded != value { text = text.replacingOccurrences(of: encoded, with: token) }
                tokens.append((token, written))
            }
            text = mask(text)
            if escapingBraces { text = literalBraces(text, openBrace: openBrace) }
            for (token, written) in tokens { text = text.replacingOccurrences(of: token, with: written) }
            return text
        }
        var lines = ["### " + (summary.map { mask($0.replacingOccurrences(of: "\n", with: " ")) } ?? name), "# @name " + name]
        if !followsRedirects { lines.append("# @no-redirect") }
        lines.append(request.method.rawValue + " " + placed(request.url))
        for header in request.headers where header.name.lowercased() != "content-length" {
            lines.append(header.name + ": " + placed(basicAsPair(header)))
        }
        if let body = request.body, !body.isEmpty {
            lines.append("")
            lines.append(placed(String(decoding: body, as: UTF8.self)))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The name of the variable a literal `{` before another `{` is written as (`@open_brace = {`),
    /// when the file uses no variable of that name: both clients read `{{` as a variable's start
    /// and substitute a variable's value once, so `{{open_brace}}{who}}` sends `{{who}}` as it is.
    static let openBrace = "open_brace"

    /// `text` with each `{` that comes before a `{`, or before a placeholder's token (which
    /// becomes `{{...}}`), written as `{{OPENBRACE}}`.
    private static func literalBraces(_ text: String, openBrace: String) -> String {
        guard text.contains("{") else { return text }
        var written = ""
        var characters = text.makeIterator()
        var current = characters.next()
        while let character = current {
            let next = characters.next()
            written += character == "{" && (next == "{" || next == "\u{0}") ? "{{\(openBrace)}}" : String(character)
            current = next
        }
        return written
    }

    /// A Basic credential as REST Client's `Basic USER:PASSWORD`, so that a placeholder can stand
    /// in it (REST Client and wsh encode it again when they send it).
    private static func basicAsPair(_ header: Header) -> String {
        guard header.name.lowercased() == "authorization", header.value.hasPrefix("Basic "),
              let data = Data(base64Encoded: String(header.value.dropFirst(6))),
              let pair = String(data: data, encoding: .utf8), pair.contains(":"), !pair.contains("\n") else { return header.value }
        return "Basic " + pair
    }

    /// A multipart body with each file part's content (the bytes of `files`, in order) written as
    /// `< PATH` (`written`; nil: left out), as both clients read a file into a multipart body.
    static func filePartsAsReferences(_ body: Data, contentType: String, files: [(path: String, written: String?)]) -> Data {
        guard let range = contentType.range(of: "boundary=") else { return body }
        let boundary = contentType[range.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        var bytes = Array(body)
        var from = 0
        for (path, written) in files {
            guard let content = FileManager.default.contents(atPath: path) else { continue }
            let needle = Array("\r\n\r\n".utf8) + Array(content) + Array("\r\n--\(boundary)".utf8)
            guard let start = bytes.indices.dropFirst(from).first(where: { bytes[$0...].starts(with: needle) }) else { continue }
            let replaced = Array((written.map { "< " + $0 } ?? "").utf8)
            bytes.replaceSubrange((start + 4)..<(start + 4 + content.count), with: replaced)
            from = start + 4 + replaced.count
        }
        return Data(bytes)
    }

    /// Whether a body can be written in a `.http` file: text, with no line that the format reads
    /// as something else (`###`, `< file`, `> handler`).
    static func canWrite(_ body: Data?) -> Bool {
        guard let body, !body.isEmpty else { return true }
        guard let text = String(data: body, encoding: .utf8), !text.contains("\0") else { return false }
        return !text.split(separator: "\n").contains { line in
            let trimmed = line.trimmingBlanks
            return trimmed.hasPrefix("###") || trimmed.hasPrefix("< ") || trimmed.hasPrefix("<@") || trimmed.hasPrefix(">")
        }
    }
}
