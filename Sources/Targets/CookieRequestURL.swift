/// What the cookie rules need of a request URL, read from its bytes without Foundation's URL
/// (which costs more than the rest of a cookie lookup, and refuses some URLs the transport sends).
struct CookieRequestURL: Equatable {
    /// Whether the scheme is https (Secure cookies go only there).
    var isSecure: Bool
    /// The host, lowercased, without brackets around an IPv6 address and without a trailing dot.
    var host: String
    /// The path without query or fragment; `/` when the URL has none.
    var path: String

    /// The parts of `url`, or `nil` when it has no `scheme://` or no host.
    init?(_ url: String) {
        var url = url
        guard let parts = url.withUTF8({ Self.parts(of: $0) }) else { return nil }
        self = parts
    }

    private init(isSecure: Bool, host: String, path: String) {
        self.isSecure = isSecure
        self.host = host
        self.path = path
    }

    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> CookieRequestURL? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
              bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
        let isSecure = colon == 5 && lowered(bytes[0..<5]).elementsEqual("https".utf8)
        let authorityStart = colon + 3
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, !isAuthorityEnd(bytes[authorityEnd]) { authorityEnd += 1 }
        var hostStart = authorityStart
        // User info may hold ':' and '@' too: the host starts after the last '@'.
        for index in authorityStart..<authorityEnd where bytes[index] == UInt8(ascii: "@") { hostStart = index + 1 }
        var hostEnd = authorityEnd
        if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "[") {
            guard let close = (hostStart..<authorityEnd).first(where: { bytes[$0] == UInt8(ascii: "]") }) else { return nil }
            hostStart += 1
            hostEnd = close
        } else if let portColon = (hostStart..<authorityEnd).last(where: { bytes[$0] == UInt8(ascii: ":") }) {
            hostEnd = portColon
        }
        if hostEnd > hostStart, bytes[hostEnd - 1] == UInt8(ascii: ".") { hostEnd -= 1 }
        guard hostEnd > hostStart else { return nil }
        var pathEnd = authorityEnd
        while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "?"), bytes[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        let host = String(decoding: lowered(bytes[hostStart..<hostEnd]), as: UTF8.self)
        let hasPath = pathEnd > authorityEnd && bytes[authorityEnd] == UInt8(ascii: "/")
        let path = hasPath ? String(decoding: bytes[authorityEnd..<pathEnd], as: UTF8.self) : "/"
        return CookieRequestURL(isSecure: isSecure, host: host, path: path)
    }

    private static func lowered(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }

    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }
}
