/// The absolute URL an ad-hoc request goes to, from what the user typed (HTTPie's shorthands).
enum RequestURL {
    /// - `http://...`, `https://...`: as typed.
    /// - `:PORT/path`, `:/path`, `:PORT`: on `http://localhost`.
    /// - `/path`: relative to `base` (`set base`).
    /// - `host.name/path`, `host:PORT/path`, `localhost/path`: over `http://`, as HTTPie does.
    /// - any other relative path: relative to `base`.
    ///
    /// The reason in words when there is no URL to be had.
    static func resolve(_ text: String, base: String?) -> Result<String, RequestURLProblem> {
        let scheme = text.prefix(8).lowercased()
        if scheme.hasPrefix("http://") || scheme.hasPrefix("https://") { return .success(text) }
        if text.hasPrefix(":") {
            let rest = text.dropFirst()
            let port = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let after = rest.dropFirst(port.count)
            return .success("http://localhost" + (port.isEmpty ? "" : ":" + port) + (after.isEmpty ? "/" : after))
        }
        if text.contains("://") { return .failure(.scheme) }
        let host = text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let looksLikeHost = !text.hasPrefix("/") && (host.contains(".") || host.contains(":") || host == "localhost")
        if looksLikeHost { return .success("http://" + text) }
        guard let base, !base.isEmpty else { return .failure(text.hasPrefix("/") ? .noBase : .notAURL) }
        return .success(joined(base, text))
    }

    /// An absolute URL as a target's `base` (scheme and authority) and `path` (the rest, query
    /// included), with `{` and `}` escaped in the path so that they are not read as parameters:
    /// the client escapes them so anyway, so the same bytes are sent.
    static func baseAndPath(_ url: String) -> (base: String, path: String) {
        guard let scheme = url.range(of: "://") else { return (url, "") }
        let rest = url[scheme.upperBound...]
        guard let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return (url, "") }
        let path = url[end...].replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
        return (String(url[..<end]), path)
    }

    /// `base` and `path` with exactly one `/` between them.
    private static func joined(_ base: String, _ path: String) -> String {
        switch (base.hasSuffix("/"), path.hasPrefix("/")) {
        case (true, true): base + path.dropFirst()
        case (false, false): base + "/" + path
        default: base + path
        }
    }
}

/// Why a request's URL could not be resolved.
enum RequestURLProblem: Error, Equatable {
    /// A scheme other than http or https.
    case scheme
    /// A path with no `set base` to resolve it against.
    case noBase
    /// A word that is neither a URL, a host nor a path, with no base.
    case notAURL

    var message: String {
        switch self {
        case .scheme: "only http:// and https:// URLs can be requested"
        case .noBase: "a path needs a base URL"
        case .notAURL: "not a URL"
        }
    }

    var note: String {
        switch self {
        case .scheme: "give http://HOST/PATH or https://HOST/PATH"
        case .noBase, .notAURL: "give a whole URL (https://HOST/PATH), :PORT/PATH for localhost, or set base URL first"
        }
    }
}
