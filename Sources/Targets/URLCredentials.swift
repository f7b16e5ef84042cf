import Foundation

/// `https://user:pass@host/` as curl reads it: the user info leaves the URL and becomes Basic
/// authentication (percent-decoded first), unless the request has an Authorization of its own.
public enum URLCredentials {
    /// The URL without its user info, and the `Authorization` value it stands for; nil when the URL has none.
    public static func split(_ url: String) -> (url: String, authorization: String)? {
        let bytes = Array(url.utf8)
        guard let schemeEnd = find(Array("://".utf8), in: bytes) else { return nil }
        let authorityStart = schemeEnd + 3
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, !"/?#".utf8.contains(bytes[authorityEnd]) { authorityEnd += 1 }
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return nil }
        let userInfo = String(decoding: bytes[authorityStart..<at], as: UTF8.self)
        let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let user = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let password = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
        let stripped = String(decoding: bytes[..<authorityStart] + bytes[(at + 1)...], as: UTF8.self)
        return (stripped, "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
