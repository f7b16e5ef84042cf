import Foundation

extension Request {
    /// The equivalent `curl` command, one option per line, with secrets masked by `redaction`.
    /// A body that is not UTF-8 text is not shown, only its size.
    public func curlCommand(redaction: Redaction) -> String {
        var words: [String] = ["curl"]
        switch method {
        case .get where body == nil: break
        case .head: words.append("--head")
        default: words.append("-X \(method.rawValue)")
        }
        words.append(Self.shellQuoted(redaction.maskedURL(url)))
        for header in headers {
            let masked = redaction.maskedHeader(header)
            words.append("-H " + Self.shellQuoted("\(masked.name): \(masked.value)"))
        }
        if let body {
            if String(data: body, encoding: .utf8) != nil {
                let text = redaction.maskedBody(body, contentType: header("Content-Type"))
                words.append("--data-binary " + Self.shellQuoted(text))
            } else {
                words.append("--data-binary " + Self.shellQuoted("<\(body.count) bytes of binary data>"))
            }
        }
        if let timeout {
            words.append("--max-time \(timeout.secondsText)")
        }
        return words.joined(separator: " \\\n  ")
    }

    /// `text` in single quotes for a POSIX shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
