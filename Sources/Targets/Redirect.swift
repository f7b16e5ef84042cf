import Foundation

/// One hop of a redirect, as the Fetch standard and curl follow it: the next request after a
/// 301, 302, 303, 307 or 308. The transport follows redirects itself, so that every `Location`
/// is checked before anything connects to it (a port past 65535 trapped inside the HTTP client).
public enum Redirect {
    /// Statuses that send the client elsewhere when they carry a `Location`.
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The request to send after `request` was answered `status` with `location`.
    /// - 303 turns any method but HEAD into GET; 301 and 302 turn POST into GET; the body goes
    ///   with the method change. 307 and 308 keep method and body.
    /// - Credentials (Authorization, Cookie, Proxy-Authorization, every header named like a
    ///   credential and every header a plugin marked as one, ``Request/credentialHeaderNames``)
    ///   go only to the origin (scheme, host and port) of `first`, the request the chain started
    ///   with: dropped on a hop elsewhere, and sent again on a hop back to it (A -> B -> A), as curl
    ///   and Hurl do. When the chain is `trusted` (curl's `--location-trusted`) they go everywhere.
    /// Throws ``ProviderError`` `.invalidURL` for a `Location` that is not an http(s) URL with a usable port.
    static func nextRequest(
        after request: Request, first: Request, status: Int, location: String, targetName: String, trusted: Bool = false
    ) throws(ProviderError) -> Request {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        // The HTTP library reads header bytes as UTF-8 and turns each invalid one (a Latin-1 `é`)
        // into U+FFFD, so the byte the server sent is lost: following would call another URL.
        if trimmed.contains("\u{FFFD}") {
            throw invalid(trimmed, reason: Self.undecodableLocation, targetName: targetName)
        }
        guard let base = URL(string: request.url), let resolved = URL(string: trimmed, relativeTo: base)?.absoluteURL else {
            throw invalid(trimmed, reason: "the redirect's Location is not a URL", targetName: targetName)
        }
        var url = resolved.absoluteString
        // The fragment is the client's, not the server's.
        if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
        guard Endpoint.hasHTTPSchemeAndHost(url) else {
            throw invalid(url, reason: "a redirect may go only to an http:// or https:// URL", targetName: targetName)
        }
        if let problem = URLPort.problem(in: url) { throw invalid(url, reason: problem, targetName: targetName) }
        var next = request
        next.url = url
        let becomesGet = (status == 303 && request.method != .head) || ((status == 301 || status == 302) && request.method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            next.headers.removeAll { ["content-type", "content-length", "content-encoding"].contains($0.name.lowercased()) }
        }
        if trusted || origin(of: url) == origin(of: first.url) {
            for header in first.headers where isCredential(header, of: first) && next.header(header.name) == nil {
                next.headers.append(header)
            }
            next.credentialHeaderNames = first.credentialHeaderNames
            next.leftFirstOrigin = false
        } else {
            next.headers.removeAll { isCredential($0, of: request) }
            next.credentialHeaderNames = []
            next.leftFirstOrigin = true
        }
        return next
    }

    /// Credentials are for the origin they were given to: the standard three, any header named
    /// like one (an auth plugin's `X-API-Key`, an `X-Auth-Token`), and those a plugin marked.
    private static func isCredential(_ header: Header, of request: Request) -> Bool {
        isCredentialHeader(header.name) || request.credentialHeaderNames.contains(header.name.lowercased())
    }

    /// Whether a header's name is a credential's: the standard three, or one named like a
    /// credential. What a redirect, or a next page at another origin, does not take there.
    public static func isCredentialHeader(_ name: String) -> Bool {
        let name = name.lowercased()
        return Redaction.sensitiveHeaderNames.contains(name) || Redaction().isSensitiveKey(name)
    }

    /// Scheme, host and port, lowercased, the port defaulting by scheme.
    public static func origin(of url: String) -> String {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else { return url }
        let port = parsed.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(parsed.host?.lowercased() ?? ""):\(port)"
    }

    /// Why a `Location` with a byte that is not UTF-8 is not followed.
    static let undecodableLocation =
        "the redirect's Location holds U+FFFD, which stands for a byte that is not UTF-8 when the server sent one, and wsh cannot tell which byte it was, so it is not followed"

    private static func invalid(_ url: String, reason: String, targetName: String) -> ProviderError {
        ProviderError(.invalidURL(url, reason: reason), step: .transport, targetName: targetName)
    }
}
