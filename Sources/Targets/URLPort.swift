/// Checks the port a URL writes, by bytes, before the HTTP client sees it: a port past 65535
/// trapped in the client, and a 20-digit one silently became port 80.
public enum URLPort {
    /// Why the URL's port is not usable (`port must be 1-65535`), or nil when it has none or a good one.
    /// An empty port (`http://host:/`) means the scheme's default, as curl reads it.
    public static func problem(in url: String) -> String? {
        var url = url
        return url.withUTF8 { bytes -> String? in
            guard let schemeEnd = indexAfterScheme(bytes) else { return nil }
            var end = schemeEnd
            while end < bytes.count, !isAuthorityEnd(bytes[end]) { end += 1 }
            var start = schemeEnd
            // User info may hold ':' and '@' too: the host starts after the last '@'.
            for index in schemeEnd..<end where bytes[index] == UInt8(ascii: "@") { start = index + 1 }
            var colon: Int?
            if start < end, bytes[start] == UInt8(ascii: "[") {
                guard let close = (start..<end).first(where: { bytes[$0] == UInt8(ascii: "]") }) else { return nil }
                if close + 1 < end, bytes[close + 1] == UInt8(ascii: ":") { colon = close + 1 }
            } else {
                colon = (start..<end).last(where: { bytes[$0] == UInt8(ascii: ":") })
            }
            guard let colon, colon + 1 < end else { return nil }
            var port = 0
            for index in (colon + 1)..<end {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    // `http://al:pa/ss@host`: the `/` ended the host, so `pa` was read as the port.
                    let misreadPassword = bytes[end...].contains(UInt8(ascii: "@"))
                    return "port must be a number from 1 to 65535"
                        + (misreadPassword ? " (a '/', '?' or '#' in a user name or password is written %2F, %3F or %23)" : "")
                }
                port = port * 10 + Int(byte - UInt8(ascii: "0"))
                if port > 65535 { return "port must be 1-65535" }
            }
            return port == 0 ? "port must be 1-65535" : nil
        }
    }

    private static func indexAfterScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
              bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
        return colon + 3
    }

    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }
}
