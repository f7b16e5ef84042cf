import Foundation
import Targets

/// The text of the logger's lines, every part masked by the redaction.
struct LogFormat {
    let redaction: Redaction
    let bodyLimit: Int?

    /// `GET https://host/path?q -> 200 OK 143 ms 412 B`, or `GET ... -> error: could not connect ...`.
    func summary(_ result: Result<Response, ProviderError>) -> String {
        let request: Request? = switch result {
        case .success(let response): response.request
        case .failure(let error): error.request
        }
        var line = LineBuffer(capacity: 128)
        if let request {
            appendRequestLine(request, to: &line)
            line.append(" -> ")
        }
        appendOutcome(result, to: &line)
        return line.text
    }

    /// `200 OK 143 ms 412 B`, or `error: ` and what went wrong.
    func outcome(_ result: Result<Response, ProviderError>) -> String {
        var line = LineBuffer(capacity: 64)
        appendOutcome(result, to: &line)
        return line.text
    }

    private func appendOutcome(_ result: Result<Response, ProviderError>, to line: inout LineBuffer) {
        switch result {
        case .success(let response):
            line.append(response.status)
            if !response.reason.isEmpty {
                line.append(" ")
                line.append(response.reason)
            }
            line.append(" ")
            line.append(response.elapsed.shortDescription)
            line.append(" ")
            // A body that went to a file or a sink as it came is not kept: its size is what went there.
            line.append(ByteText.text(response.streamedBodyBytes ?? response.body.count))
        case .failure(let error):
            line.append("error: ")
            line.append(error.description(masking: redaction))
        }
    }

    /// `> GET url`, `> Name: value` for each header, then `>` and the body when there is one.
    func request(_ request: Request) -> String {
        var lines = ["> " + requestLine(request)]
        lines += request.headers.map { header in
            let masked = redaction.maskedHeader(header)
            return "> \(masked.name): \(masked.value)"
        }
        if let body = request.body,
           let text = bodyText(body, masked: { redaction.maskedBody(body, contentType: request.header("Content-Type")) }) {
            lines += [">", text]
        }
        return lines.joined(separator: "\n")
    }

    /// `< 200 OK 143 ms 412 B`, `< Name: value` for each header, then `<` and the body when there is one;
    /// or `< error: ...`.
    func response(_ result: Result<Response, ProviderError>) -> String {
        guard case .success(let response) = result else { return "< " + outcome(result) }
        var lines = ["< " + outcome(result)]
        lines += response.headers.map { header in
            let masked = redaction.maskedHeader(header)
            return "< \(masked.name): \(masked.value)"
        }
        if let text = bodyText(response.body, masked: { redaction.maskedBody(of: response) }, parsed: { try? response.json() }) {
            lines += ["<", text]
        }
        return lines.joined(separator: "\n")
    }

    private func requestLine(_ request: Request) -> String {
        var line = LineBuffer(capacity: 128)
        appendRequestLine(request, to: &line)
        return line.text
    }

    private func appendRequestLine(_ request: Request, to line: inout LineBuffer) {
        line.append(request.method.rawValue)
        line.append(" ")
        line.append(redaction.maskedURL(request.url))
    }

    /// The body masked by `masked`, pretty when it is JSON, cut at the limit; `nil` when empty or left out.
    /// Masking comes before cutting, so that a cut can never leave half a secret showing.
    /// `parsed` gives the body's own parse as JSON (a response's), read when masking changed nothing;
    /// otherwise the masked text is parsed.
    func bodyText(_ body: Data, masked: () -> String, parsed: (() -> JSONValue?)? = nil) -> String? {
        guard !body.isEmpty, bodyLimit != 0 else { return nil }
        guard let original = String(data: body, encoding: .utf8) else { return "<\(body.count) bytes of binary data>" }
        var text = masked()
        // Compared byte for byte: `==` would take two spellings of the same characters as equal.
        let json: JSONValue? = if let parsed, text.utf8.elementsEqual(original.utf8) {
            parsed()
        } else {
            try? JSONValue.parse(text)
        }
        if let json {
            // Parsing undoes escapes a server chose (`\u0070` for `p`): a secret written so shows only now.
            text = redaction.mask(json.prettyText)
        }
        guard let limit = bodyLimit, text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (cut at \(limit) of \(text.count) characters)"
    }
}
