import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The request head the plain client sends, framed as AsyncHTTPClient frames one: field names
/// must be tokens and values may hold no control character but HTAB (``problem(in:namesChecked:)``, which
/// ``NetworkTransport`` asks before either client sends), `host` is added when missing, and
/// `Content-Length` follows the body (`0` only for a method that expects one).
enum PlainHTTPRequestHead {
    static func make(
        method: NIOHTTP1.HTTPMethod, origin: PlainHTTPOrigin, headers: HTTPHeaders, bodyLength: Int
    ) throws -> HTTPRequestHead {
        if method == .TRACE, bodyLength > 0 { throw HTTPClientError.traceRequestWithBody }
        var headers = headers
        if !headers.contains(name: "host") { headers.add(name: "host", value: origin.hostHeader) }
        headers.remove(name: "Content-Length")
        headers.remove(name: "Transfer-Encoding")
        switch (bodyLength, method) {
        case (0, .GET), (0, .HEAD), (0, .DELETE), (0, .CONNECT), (0, .TRACE): break
        default: headers.add(name: "Content-Length", value: String(bodyLength))
        }
        return HTTPRequestHead(version: .http1_1, method: method, uri: origin.uri, headers: headers)
    }

    /// What makes `headers` impossible to send, in a user's words: a name that is not a token, a
    /// value with a control character. Nil when both clients would send them. With `namesChecked`,
    /// only the values are checked: the names are those of headers found sendable before.
    static func problem(in headers: [Header], namesChecked: Bool = false) -> String? {
        for header in headers {
            if !namesChecked, header.name.isEmpty || !header.name.utf8.allSatisfy(HTTPMethod.isTokenByte) {
                return "the header name '\(header.name)' holds characters a header name cannot (blanks, ':', quotes, non-ASCII)"
            }
            var value = header.value
            guard let bad = value.withUTF8(firstControlCharacter) else { continue }
            let what = bad == UInt8(ascii: "\n") || bad == UInt8(ascii: "\r") ? "a line break" : "a control character"
            return "the value of header \(header.name) holds \(what), which HTTP does not allow in a header"
        }
        return nil
    }

    /// The first byte of `bytes` that a header value may not hold: a control character but HTAB.
    /// Eight bytes at a time, since a Cookie header of twenty cookies is checked on every call.
    static func firstControlCharacter(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        guard let base = bytes.baseAddress else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let delete = word ^ (0x7F &* ones)
            // A byte below 0x20, or 0x7F (zero after the xor): its high bit set in `suspect`.
            let suspect = ((word &- 0x20 &* ones) & ~word | (delete &- ones) & ~delete) & highs
            if suspect != 0 { break }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "\t"), byte < 0x20 || byte == 0x7F { return byte }
            index += 1
        }
        return nil
    }
}
