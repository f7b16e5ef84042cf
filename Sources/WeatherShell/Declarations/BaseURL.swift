/// Base URLs taken apart as far as pointing a pack at another host needs.
enum BaseURL {
    /// `http://127.0.0.1:4010` and `https://api.open-meteo.com/v1` give `http://127.0.0.1:4010/v1`:
    /// the scheme, host and port of `base` with the path of `original`. Nil when either is not an
    /// absolute http(s) URL.
    static func origin(of base: String, withPathOf original: String) -> String? {
        guard let origin = split(base)?.origin, let path = split(original)?.path else { return nil }
        return origin + path
    }

    private static func split(_ url: String) -> (origin: String, path: String)? {
        guard let scheme = url.range(of: "://"), url.hasPrefix("http") else { return nil }
        let rest = url[scheme.upperBound...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard pathStart > rest.startIndex else { return nil }
        return (String(url[..<pathStart]), String(rest[pathStart...]))
    }
}
