/// The one line that says a response's status was not accepted:
/// `HTTP 401 Unauthorized from target 'weather' (expected 2xx): "Invalid API key." body: {"cod":401, ...}`.
/// The parenthesis says why the status is a failure: the validation, or a retry plugin giving up.
struct ValidationFailureMessage {
    /// How much of the body the message shows.
    static let bodyPreviewLength = 200

    let targetName: String
    let condition: String
    let response: Response?

    var text: String {
        guard let response else { return "target '\(targetName)' answered with an unacceptable status (\(condition))" }
        var line = "HTTP \(response.status)"
        if !response.reason.isEmpty { line += " \(response.reason)" }
        line += " from target '\(targetName)' (\(condition))"
        if let message = response.serverMessage {
            line += ": " + JSONValue.quoted(message)
        }
        let preview = Self.preview(of: response)
        if !preview.isEmpty { line += " body: " + preview }
        return line
    }

    /// The start of the body on one line: whitespace runs collapsed, cut with `…` past the preview length.
    static func preview(of response: Response) -> String {
        let text = String(decoding: response.body.prefix(bodyPreviewLength * 4), as: UTF8.self)
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard words.count > bodyPreviewLength else { return words }
        return String(words.prefix(bodyPreviewLength)) + "…"
    }
}
