/// The one line that says a response's status was not accepted:
/// `HTTP 401 Unauthorized from target 'weather' (expected 2xx): "Invalid API key." body: {"cod":401, ...}`.
struct ValidationFailureMessage {
    /// How much of the body the message shows.
    static let bodyPreviewLength = 200

    let targetName: String
    let validation: ValidationType
    let response: Response?

    var text: String {
        guard let response else { return "target '\(targetName)' answered outside \(validation)" }
        var line = "HTTP \(response.status)"
        if !response.reason.isEmpty { line += " \(response.reason)" }
        line += " from target '\(targetName)' (expected \(validation))"
        if let message = Self.serverMessage(in: response) {
            line += ": " + JSONValue.quoted(message)
        }
        let preview = Self.preview(of: response)
        if !preview.isEmpty { line += " body: " + preview }
        return line
    }

    /// The message an API put in its JSON error body, looked for at `message`, `error` (a string),
    /// `error.message`, `detail` and, for Open-Meteo, `reason`.
    static func serverMessage(in response: Response) -> String? {
        guard let json = try? JSONValue.parse(response.body) else { return nil }
        let candidates = [json["message"], json["error"], json["error"]?["message"], json["detail"], json["reason"]]
        return candidates.lazy.compactMap { $0?.string }.first { !$0.isEmpty }
    }

    /// The start of the body on one line: whitespace runs collapsed, cut with `…` past the preview length.
    static func preview(of response: Response) -> String {
        let text = String(decoding: response.body.prefix(bodyPreviewLength * 4), as: UTF8.self)
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard words.count > bodyPreviewLength else { return words }
        return String(words.prefix(bodyPreviewLength)) + "…"
    }
}
