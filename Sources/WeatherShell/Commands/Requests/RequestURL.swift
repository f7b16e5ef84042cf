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
        // Read as bytes: a request statement resolves its URL every time it runs.
        if hasHTTPScheme(text) { return .success(text) }
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: ":") {
            let portEnd = bytes.dropFirst().firstIndex(where: endsHost) ?? bytes.count
            let port = String(decoding: bytes[1..<portEnd], as: UTF8.self)
            let after = String(decoding: bytes[portEnd...], as: UTF8.self)
            return .success("http://localhost" + (port.isEmpty ? "" : ":" + port) + (after.isEmpty ? "/" : after))
        }
        // A scheme other than http(s), or what is meant as one (`ht!tp://`): `://` before any path.
        if hasScheme(bytes) { return .failure(.scheme) }
        if let separator = schemeSeparator(in: bytes), !bytes[..<separator].contains(where: endsHost) { return .failure(.scheme) }
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
        var text = url
        return text.withUTF8 { bytes in
            guard let separator = schemeSeparator(in: bytes),
                  let end = bytes[(separator + 3)...].firstIndex(where: endsHost) else { return (url, "") }
            let base = String(decoding: bytes[..<end], as: UTF8.self)
            let rest = bytes[end...]
            guard rest.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else {
                return (base, String(decoding: rest, as: UTF8.self))
            }
            var path: [UInt8] = []
            path.reserveCapacity(rest.count + 6)
            for byte in rest {
                switch byte {
                case UInt8(ascii: "{"): path += Array("%7B".utf8)
                case UInt8(ascii: "}"): path += Array("%7D".utf8)
                default: path.append(byte)
                }
            }
            return (base, String(decoding: path, as: UTF8.self))
        }
    }

    private static func endsHost(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// `http://` or `https://`, in any case. Read in place: the common case, an absolute URL,
    /// then costs no copy of the text.
    private static func hasHTTPScheme(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            func lowered(_ index: Int) -> UInt8 {
                bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") ? bytes[index] | 0x20 : bytes[index]
            }
            guard bytes.count >= 7, lowered(0) == UInt8(ascii: "h"), lowered(1) == UInt8(ascii: "t"),
                  lowered(2) == UInt8(ascii: "t"), lowered(3) == UInt8(ascii: "p") else { return false }
            let colon = lowered(4) == UInt8(ascii: "s") ? 5 : 4
            return bytes.count >= colon + 3 && bytes[colon] == UInt8(ascii: ":")
                && bytes[colon + 1] == UInt8(ascii: "/") && bytes[colon + 2] == UInt8(ascii: "/")
        }
    }

    /// Whether the text begins with a scheme and `://` (`ftp://`, `ws://`): a `://` further on, in
    /// a path or a query (`/login?next=https://x.org/`), is not one.
    private static func hasScheme(_ bytes: [UInt8]) -> Bool {
        guard let separator = schemeSeparator(in: bytes), separator > 0, isLetter(bytes[0]) else { return false }
        return bytes[1..<separator].allSatisfy { byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// Where `://` starts, if anywhere.
    private static func schemeSeparator<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes) -> Int? where Bytes.Index == Int {
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
