import Foundation
import Plugins
import Targets

/// How `call` shows an answer on stdout, by `set output`: the body pretty or raw, the headers,
/// or all of it (status line, headers, body) once, as HTTPie does. At a terminal header names are
/// coloured and a binary body is described instead of printed.
struct ResponsePrinter {
    let io: ShellIO
    let color: Bool
    /// The masking of headers and the URL, asked for only when they are printed: a body alone
    /// needs none, and making it walks the request for the credentials it sent.
    let redaction: () -> Redaction
    /// The target, for the hint to save a binary body.
    let targetName: String

    func print(_ response: Response, as output: ShellOptions.Output) {
        switch output {
        case .quiet:
            break
        case .raw:
            io.out(bytes: response.body)
        case .headers:
            printHead(response)
        case .pretty where response.request.method == .head:
            // An answer to HEAD has no body: its headers are what was asked for, as HTTPie shows them.
            printHeaders(response)
        case .pretty:
            printBody(response)
        case .all:
            printHead(response)
            io.out("\n")
            if io.stdoutIsTerminal { printBody(response) } else { io.out(bytes: response.body) }
        }
    }

    private func printHead(_ response: Response) {
        let status = "HTTP \(response.status) \(response.reason)"
        io.out(styled: paint(TerminalText.escaped(status), response.status < 400 ? "32" : "31") + "\n")
        printHeaders(response)
    }

    private func printHeaders(_ response: Response) {
        let redaction = redaction()
        for header in response.headers {
            let masked = redaction.maskedHeader(header)
            let name = io.stdoutIsTerminal ? TerminalText.escaped(masked.name) : masked.name
            let value = io.stdoutIsTerminal ? TerminalText.escaped(masked.value) : masked.value
            io.out(styled: paint(name, "36") + ": " + value + "\n")
        }
    }

    /// The command that gets the answer again, for the note on a binary body: a request with no
    /// target (named `(get)`) is sent again by its method and the URL it was sent to (masked, in
    /// single quotes when it holds what the shell would read otherwise).
    private func savingCommand(_ response: Response) -> String {
        guard targetName.hasPrefix("("), targetName.hasSuffix(")") else { return "call \(targetName)" }
        let method = String(targetName.dropFirst().dropLast())
        let url = redaction().maskedURL(response.firstRequest.url)
        let plain = url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"{};|#\"'$\\".utf8.contains($0) }
        let word = plain ? url : url.contains("'") ? "URL" : "'" + url + "'"
        return RequestStatement.methodCommands.contains(method) ? "\(method) \(word)" : "request \(method.uppercased()) \(word)"
    }

    private func printBody(_ response: Response) {
        if let json = try? response.json() {
            io.out(styled: JSONPrinter(color: color).render(json) + "\n")
            return
        }
        // Shown as text in its charset; raw output, a pipe or `> FILE` get the bytes as sent.
        let text = CharsetDecoding.utf8(response.body, contentType: response.header("Content-Type")) ?? response.body
        if io.stdoutIsTerminal, Self.isBinary(text, contentType: response.header("Content-Type")) {
            let type = response.header("Content-Type").map { " " + TerminalText.escaped($0) } ?? ""
            io.out("[binary body: \(ByteText.text(response.body.count))\(type), not shown at a terminal; "
                   + "save it with: \(TerminalText.escaped(savingCommand(response))) > FILE]\n")
            return
        }
        io.out(bytes: text)
        if text.last != UInt8(ascii: "\n"), !text.isEmpty { io.out("\n") }
    }

    /// Whether a media type is one of bytes that are not text (an image, an archive, `application/octet-stream`).
    static func isBinaryType(_ contentType: String?) -> Bool {
        let type = contentType?.lowercased() ?? ""
        guard !type.hasPrefix("image/svg") else { return false }
        return ["image/", "audio/", "video/", "font/", "application/octet-stream", "application/pdf", "application/zip",
                "application/gzip", "application/x-tar", "application/wasm", "application/x-protobuf"].contains { type.hasPrefix($0) }
    }

    private func paint(_ text: String, _ code: String) -> String {
        color && io.stdoutIsTerminal ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// A body is binary when its media type says so, or when it holds a NUL byte or is not UTF-8.
    static func isBinary(_ body: Data, contentType: String?) -> Bool {
        if isBinaryType(contentType) { return true }
        let sample = body.prefix(8192)
        if sample.contains(0) { return true }
        // A sample cut inside a character is still text: allow up to 3 bytes of a sequence at its end.
        return String(validating: sample, as: UTF8.self) == nil
            && (1...3).allSatisfy { String(validating: sample.dropLast($0), as: UTF8.self) == nil }
    }
}
