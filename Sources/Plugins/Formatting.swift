import Foundation
import Targets

extension Duration {
    /// `1.2s`: seconds with one decimal, as the spinner counts.
    var spinnerText: String {
        String(format: "%.1fs", milliseconds / 1000)
    }
}


/// The host and port of a URL as written, without parsing it into Foundation's URL (which refuses
/// some URLs the transport accepts).
struct URLAuthority: Equatable {
    /// The host, lowercased, without brackets around an IPv6 address.
    var host: String
    /// The port when the URL gives one.
    var port: Int?
    /// The port given, else 443 for https and 80 for anything else.
    var effectivePort: Int


    /// The authority of `url`, or `nil` when it has no `scheme://`.
    init?(url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        var authority = rest.prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close]).lowercased()
            let afterBracket = authority[authority.index(after: close)...]
            port = afterBracket.hasPrefix(":") ? Int(afterBracket.dropFirst()) : nil
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon]).lowercased()
            port = Int(authority[authority.index(after: colon)...])
        } else {
            host = String(authority).lowercased()
            port = nil
        }
        if host.isEmpty { return nil }
        effectivePort = port ?? (url.lowercased().hasPrefix("https://") ? 443 : 80)
    }
}
