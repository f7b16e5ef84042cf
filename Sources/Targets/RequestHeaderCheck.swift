/// Whether a request's header fields can be sent, checked before any client sends them, so that
/// the user hears what is wrong in words rather than as a client's error.
enum RequestHeaderCheck {
    /// What makes `headers` impossible to send, in a user's words: a name that is not a token, a
    /// value with a control character but HTAB. Nil when they can be sent.
    static func problem(in headers: [Header]) -> String? {
        for header in headers {
            if header.name.isEmpty || !header.name.allBytes(HTTPMethod.isTokenByte) {
                return "the header name '\(header.name)' holds characters a header name cannot (blanks, ':', quotes, non-ASCII)"
            }
            guard let bad = header.value.firstByte(where: { $0 != UInt8(ascii: "\t") && ($0 < 0x20 || $0 == 0x7F) }) else { continue }
            let what = bad == UInt8(ascii: "\n") || bad == UInt8(ascii: "\r") ? "a line break" : "a control character"
            return "the value of header \(header.name) holds \(what), which HTTP does not allow in a header"
        }
        return nil
    }
}
