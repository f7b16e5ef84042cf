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
        // Read as bytes: a request statement resolves its URL every time it runs, and Character
        // searches (and Foundation's) cost it a tenth of a loopback call (callgrind).
        let bytes = Array(text.utf8)
        if hasHTTPScheme(bytes) { return .success(text) }
        if bytes.first == UInt8(ascii: ":") {
            let portEnd = bytes.dropFirst().firstIndex(where: endsHost) ?? bytes.count
            let port = String(decoding: bytes[1..<portEnd], as: UTF8.self)
            let after = String(decoding: bytes[portEnd...], as: UTF8.self)
            return .success("http://localhost" + (port.isEmpty ? "" : ":" + port) + (after.isEmpty ? "/" : after))
        }
        if schemeSeparator(in: bytes) != nil { return .failure(.scheme) }
        // `http//host/x` or `https:/host/x`: a scheme mistyped, not a path to put after `set base`.
        for scheme in ["http//", "https//", "http:/", "https:/"] where text.hasPrefix(scheme) { return .failure(.mistypedScheme) }
        let startsWithSlash = bytes.first == UInt8(ascii: "/")
        let host = bytes.prefix { !endsHost($0) }
        let looksLikeHost = !startsWithSlash
            && (host.contains(UInt8(ascii: ".")) || host.contains(UInt8(ascii: ":")) || host.elementsEqual("localhost".utf8))
        if looksLikeHost { return .success("http://" + text) }
        guard let base, !base.isEmpty else { return .failure(startsWithSlash ? .noBase : .notAURL) }
        return .success(joined(base, text))
    }

    /// An absolute URL as a target's `base` (scheme and authority) and `path` (the rest, query
    /// included), with `{` and `}` escaped in the path so that they are not read as parameters:
    /// the client escapes them so anyway, so the same bytes are sent.
    static func baseAndPath(_ url: String) -> (base: String, path: String) {
        let bytes = Array(url.utf8)
        guard let separator = schemeSeparator(in: bytes),
              let end = bytes[(separator + 3)...].firstIndex(where: endsHost) else { return (url, "") }
        var path: [UInt8] = []
        path.reserveCapacity(bytes.count - end)
        for byte in bytes[end...] {
            switch byte {
            case UInt8(ascii: "{"): path += Array("%7B".utf8)
            case UInt8(ascii: "}"): path += Array("%7D".utf8)
            default: path.append(byte)
            }
        }
        return (String(decoding: bytes[..<end], as: UTF8.self), String(decoding: path, as: UTF8.self))
    }

    private static func endsHost(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// `http://` or `https://`, in any case.
    private static func hasHTTPScheme(_ bytes: [UInt8]) -> Bool {
        let lowered = bytes.prefix(8).map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        return lowered.starts(with: "http://".utf8) || lowered.starts(with: "https://".utf8)
    }

    /// Where `://` starts, if anywhere.
    private static func schemeSeparator(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 3 else { return nil }
        return (0...(bytes.count - 3)).first { bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: "/") && bytes[$0 + 2] == UInt8(ascii: "/") }
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
    /// `http//` or `http:/`: the scheme's `://` mistyped.
    case mistypedScheme

    var message: String {
        switch self {
        case .scheme: "only http:// and https:// URLs can be requested"
        case .noBase: "a path needs a base URL"
        case .notAURL: "not a URL"
        case .mistypedScheme: "the URL's scheme is mistyped"
        }
    }

    var note: String {
        switch self {
        case .scheme: "give http://HOST/PATH or https://HOST/PATH"
        case .noBase, .notAURL: "give a whole URL (https://HOST/PATH), :PORT/PATH for localhost, or set base URL first"
        case .mistypedScheme: "write it http://HOST/PATH or https://HOST/PATH"
        }
    }
}
