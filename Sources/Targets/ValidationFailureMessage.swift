/// The one line that says a response's status was not accepted:
/// `HTTP 401 Unauthorized from target 'weather' (expected 2xx): "Invalid API key." body: {"cod":401, ...}`.
/// The parenthesis says why the status is a failure: the validation, or a retry plugin giving up.
struct ValidationFailureMessage {
    /// How much of the body the message shows.
    static let bodyPreviewLength = 200

    let targetName: String
    let condition: String
    let response: Response?
    /// Applied to the server's text before it is quoted or cut.
    var mask: (String) -> String = { $0 }

    var text: String {
        guard let response else { return "target '\(targetName)' answered with an unacceptable status (\(condition))" }
        var line = "HTTP \(response.status)"
        if !response.reason.isEmpty { line += " \(response.reason)" }
        line += " from target '\(targetName)' (\(condition))"
        if let message = response.serverMessage {
            line += ": " + JSONValue.quoted(mask(message))
        }
        let preview = Self.preview(of: response, mask: mask)
        if !preview.isEmpty { line += " body: " + preview }
        return line
    }

    /// The start of the body on one line: whitespace runs collapsed, cut with `…` past the preview length.
    /// `mask` sees a stretch longer than any secret past the cut, so a secret across it is masked whole.
    static func preview(of response: Response, mask: (String) -> String = { $0 }) -> String {
        let text = mask(String(decoding: response.body.prefix(bodyPreviewLength * 4 + 4096), as: UTF8.self))
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard words.count > bodyPreviewLength else { return words }
        return String(words.prefix(bodyPreviewLength)) + "…"
    }
}
