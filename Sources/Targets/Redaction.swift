import Foundation

/// Masks secrets as `***` wherever a request is shown: in logs, curl commands and error messages.
///
/// What counts as secret: the given secret values (the shell passes the values of variables that came
/// from `env`), wherever they appear and in every form a request gives them (``SecretForms``); the values of
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` headers; and the values of headers,
/// query parameters and body fields whose name looks sensitive (see ``isSensitiveKey(_:)``).
public struct Redaction: Sendable {
    /// What a secret is replaced with.
    public static let placeholder = "***"

    /// Header names whose values are always masked, lowercased.
    public static let sensitiveHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie",
    ]

    /// Substrings that make a key sensitive, lowercased.
    public static let sensitiveKeyParts = ["key", "token", "secret", "password", "appid", "api_key", "apikey", "session"]

    /// The secret values and their forms.
    public let secrets: SecretSet
    /// The secret values as given, less those shorter than ``SecretForms/minimumLength``.
    public var secretValues: [String] { secrets.values }

    /// Masks the given secret values besides the sensitive names; values shorter than
    /// ``SecretForms/minimumLength`` are not masked by value.
    public init(secrets: [String] = []) {
        self.secrets = SecretSet(secrets)
    }

    /// Masks the secrets of `secrets`, whose forms are already computed, besides the sensitive names.
    public init(secrets: SecretSet) {
        self.secrets = secrets
    }

    /// `text` with every form of every secret value replaced by `***`.
    public func mask(_ text: String) -> String {
        secrets.mask(text)
    }

    /// Whether a query, body or header key names a secret: it contains `key`, `token`, `secret`,
    /// `password`, `appid`, `api_key`, `apikey` or `session`, in any case.
    public func isSensitiveKey(_ key: String) -> Bool {
        var key = key
        // An ASCII key (nearly every one) is scanned byte by byte; lowercasing other text can make
        // ASCII of it (the Kelvin sign K is k), so it takes the long way.
        if let sensitive = key.withUTF8({ bytes in bytes.isASCII ? Self.sensitiveKeyFinder.occurs(in: bytes) : nil }) {
            return sensitive
        }
        let lowered = key.lowercased()
        return Self.sensitiveKeyParts.contains { lowered.contains($0) }
    }

    /// Whether a cookie's name says its value is a secret: a sensitive key (``isSensitiveKey(_:)``),
    /// or a session or anti-forgery cookie (`sid`, `PHPSESSID`, `connect.sid`, `auth`, `csrftoken`).
    public func isSensitiveCookieName(_ name: String) -> Bool {
        var name = name
        if let sensitive = name.withUTF8(Self.isSensitiveCookieName(ascii:)) { return sensitive }
        // Not ASCII: lowercasing can make a key part of it (the Kelvin sign is `k`), so the long way too.
        return isSensitiveKey(name) || name.withUTF8 { Self.sensitiveCookieNameFinder.occurs(in: $0) }
    }

    /// Whether an ASCII cookie name is sensitive, read from its bytes; `nil` when it is not ASCII.
    /// Compared as bytes, as every cookie of every recorded call is asked.
    static func isSensitiveCookieName(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        bytes.isASCII ? sensitiveCookieNameFinder.occurs(in: bytes) : nil
    }

    /// Substrings that make a cookie's name sensitive besides ``sensitiveKeyParts``, lowercased.
    public static let sensitiveCookieParts = ["sess", "sid", "auth", "csrf", "xsrf"]

    /// Finds ``sensitiveKeyParts`` in ASCII text.
    static let sensitiveKeyFinder = ASCIIPartFinder(sensitiveKeyParts)
    /// Finds ``sensitiveKeyParts`` and ``sensitiveCookieParts`` in ASCII text.
    private static let sensitiveCookieNameFinder = ASCIIPartFinder(sensitiveKeyParts + sensitiveCookieParts)

    /// Whether the bytes at `start` are `part` (lowercased ASCII) in any case; `part.count` bytes must be there.
    static func holds(_ part: [UInt8], at start: UnsafePointer<UInt8>) -> Bool {
        var index = 0
        while index < part.count, asciiLowercased(start[index]) == part[index] { index += 1 }
        return index == part.count
    }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Whether a header, query or body key names a secret: one of ``sensitiveHeaderNames`` or a
    /// sensitive key (``isSensitiveKey(_:)``).
    public func isSensitiveName(_ name: String) -> Bool {
        var name = name
        if let sensitive = name.withUTF8(Self.isSensitiveName(ascii:)) { return sensitive }
        return Self.sensitiveHeaderNames.contains(name.lowercased()) || isSensitiveKey(name)
    }

    /// ``isSensitiveName(_:)`` of an ASCII name, read once from its bytes; `nil` when it is not
    /// ASCII. Every header of every recorded call is asked this, twice.
    static func isSensitiveName(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.isASCII else { return nil }
        return isSensitiveHeaderName(ascii: bytes) || sensitiveKeyFinder.occurs(in: bytes)
    }

    /// The header with its value masked if its name is sensitive, or with secret values masked
    /// otherwise. A `Set-Cookie` line keeps its cookies' names and their attributes (`Path`,
    /// `Expires`, `SameSite`, what a user reads it for, as curl and HTTPie show them), each cookie's
    /// value `***`: which cookie holds a session no list of names can tell.
    public func maskedHeader(_ header: Header) -> Header {
        if header.name.utf8.count == 10, header.name.lowercased() == "set-cookie" {
            return Header(name: header.name, value: maskedSetCookie(header.value))
        }
        let sensitive = isSensitiveName(header.name)
        return Header(name: header.name, value: sensitive ? Self.placeholder : mask(header.value))
    }

    /// A `Set-Cookie` value with every cookie's value as `***`, in a line that folds several
    /// cookies with commas too (`a=1, sid=2; Path=/`): the first `name=value` whatever its name, any
    /// other that is not an attribute (`Path=/`), and text with no `=` that is no flag (`; Secure`)
    /// nor the rest of an `Expires` date (a nameless cookie, the rest of a value with a `,` or `;`).
    private func maskedSetCookie(_ value: String) -> String {
        var masked = ""
        var segment = ""
        var separator: Character?
        var previousName: String?
        func flush() {
            let name = segment.firstIndex(of: "=").map { segment[..<$0].trimmingCharacters(in: .whitespaces).lowercased() }
            if let equals = segment.firstIndex(of: "=") {
                let isAttribute = separator != nil && name.map(Self.cookieAttributes.contains) == true
                masked += isAttribute ? segment : segment[...equals] + Self.placeholder
            } else if (separator == ";" && Self.cookieFlags.contains(segment.trimmingCharacters(in: .whitespaces).lowercased()))
                        || (separator == "," && previousName == "expires") || segment.trimmingCharacters(in: .whitespaces).isEmpty {
                masked += segment
            } else {
                masked += Self.placeholder
            }
            previousName = name
            segment = ""
        }
        for character in value {
            if character == ";" || character == "," {
                flush()
                masked.append(character)
                separator = character
            } else {
                segment.append(character)
            }
        }
        flush()
        return mask(masked)
    }

    /// The attributes a `Set-Cookie` line may give with no value.
    private static let cookieFlags: Set<String> = ["secure", "httponly", "partitioned"]

    /// The attributes a `Set-Cookie` line may give after its cookie (RFC 6265 and its successors).
    private static let cookieAttributes: Set<String> = ["expires", "max-age", "domain", "path", "samesite", "priority", "version", "comment"]

    /// Whether ASCII `bytes` are one of ``sensitiveHeaderNames`` in any case.
    private static func isSensitiveHeaderName(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return sensitiveHeaderNameBytes.contains { $0.count == bytes.count && holds($0, at: base) }
    }

    private static let sensitiveHeaderNameBytes = sensitiveHeaderNames.map { Array($0.utf8) }

    /// The URL with a user-info password, the values of sensitive query keys and every secret value masked.
    public func maskedURL(_ url: String) -> String {
        // Most URLs have nothing to mask: no user info, no query, no secret values.
        if secrets.isEmpty, !url.containsByte(UInt8(ascii: "@")), !url.containsByte(UInt8(ascii: "?")) { return url }
        let url = Self.maskedMisreadPassword(url)
        let (beforeFragment, fragment) = url.split(once: UInt8(ascii: "#"))
        let (address, query) = beforeFragment.split(once: UInt8(ascii: "?"))
        var masked = maskedUserInfo(address)
        if let query {
            masked += "?" + maskedPairs(query)
        }
        if let fragment {
            masked += "#" + fragment
        }
        return mask(masked)
    }

    /// The body as text for display: sensitive members of a JSON body, sensitive fields of a
    /// url-encoded form and sensitive elements of XML masked, then every secret value masked, in JSON text also where escapes
    /// hide it (``maskedDecodingJSON(_:)``). A JSON object or list sent with a
    /// form's type (a pasted "Copy as cURL" `--data-raw '{...}'`, which curl types as a form) is
    /// masked as JSON. Bytes that are not UTF-8 are shown as U+FFFD.
    public func maskedBody(_ body: Data, contentType: String?) -> String {
        maskedBody(body, contentType: contentType) { try? JSONValue.parse(body) }
    }

    /// ``maskedBody(_:contentType:)`` with the body's parse as JSON from `parsed`, asked for only
    /// when the content type says JSON or says nothing.
    func maskedBody(_ body: Data, contentType: String?, parsed: () -> JSONValue?) -> String {
        let text = String(decoding: body, as: UTF8.self)
        let type = contentType?.lowercased() ?? ""
        let isForm = type.contains("x-www-form-urlencoded")
        if isForm, !Self.opensJSONContainer(body) {
            return mask(maskedPairs(text))
        }
        if type.contains("json") || type.isEmpty || isForm, let json = parsed() {
            let (maskedJSON, changed) = maskedMembers(json)
            // A secret JSON escapes hide (`\u002B`, a body echoed as a string) is found as it decodes.
            return maskedDecodingJSON(changed ? maskedJSON.compactText : text)
        }
        if isForm { return mask(maskedPairs(text)) }
        return maskedDecodingJSON(Self.looksLikeXML(body, contentType: contentType) ? maskedElements(text) : text)
    }

    /// Whether `body`'s first byte that is not white space opens a JSON object or list: a body
    /// that may have members named as credentials, parsed to know (a scalar or a binary body has
    /// none, and is not copied to be parsed).
    public static func opensJSONContainer(_ body: Data) -> Bool {
        guard let first = firstByte(of: body) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// A body's first byte that is not white space, after a byte order mark, as the JSON parser
    /// reads one; nil for a body of white space.
    static func firstByte(of body: Data) -> UInt8? {
        let text = body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body[...]
        return text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// `a=1&token=x` as `a=1&token=***`; keys are compared after percent-decoding. The password of
    /// a URL a value holds (`next=http://eve:***@host/`, percent-encoded too) is masked wherever
    /// it is in the value.
    private func maskedPairs(_ pairs: String) -> String {
        pairs.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { bytes in
            let pair = String(Substring(bytes))
            let (key, value) = pair.split(once: UInt8(ascii: "="))
            guard let value else { return pair }
            guard isSensitiveKey(PercentEncoding.decode(key[...])) else {
                let nested = Self.nestedURLPassword(value)
                return nested.isEmpty ? pair : key + "=" + SecretSet(nested).mask(value)
            }
            return key + "=" + Self.placeholder
        }.joined(separator: "&")
    }

    /// `https://user:pass@host/...` as `https://user:***@host/...`.
    private func maskedUserInfo(_ address: String) -> String {
        guard address.containsByte(UInt8(ascii: "@")), let schemeEnd = address.firstRange(of: "://") else { return address }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = address[authorityStart...].firstIndex(of: "/") ?? address.endIndex
        guard let at = address[authorityStart..<authorityEnd].lastIndex(of: "@"),
              let colon = address[authorityStart..<at].firstIndex(of: ":") else { return address }
        return String(address[..<address.index(after: colon)]) + Self.placeholder + String(address[at...])
    }

    /// `http://al:pa/ss@host/`: a password with `/`, `?` or `#` unescaped, which no client reads
    /// as one (the host is taken to be `al` and its port `pa`, an error that shows the URL).
    /// Masked from the `:` to the URL's last `@` when what follows the `:` is no port: the URL
    /// cannot be sent as it is, so masking too much costs nothing. `http://al:1234/x@h` reads as
    /// host `al`, port 1234, and is left as it reads.
    static func maskedMisreadPassword(_ url: String) -> String {
        guard url.containsByte(UInt8(ascii: "@")), let schemeEnd = url.firstRange(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let authority = url[authorityStart..<authorityEnd]
        guard authorityEnd < url.endIndex, !authority.hasPrefix("["), !authority.contains("@"),
              let colon = authority.firstIndex(of: ":"),
              !url[url.index(after: colon)..<authorityEnd].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let at = url[authorityEnd...].lastIndex(of: "@") else { return url }
        return String(url[...colon]) + placeholder + String(url[at...])
    }

    /// Replaces the values of sensitive keys anywhere in `value`; says whether anything changed.
    private func maskedMembers(_ value: JSONValue) -> (JSONValue, Bool) {
        switch value {
        case .object(let members):
            var changed = false
            let masked = members.map { member -> JSONMember in
                if isSensitiveKey(member.key), member.value != .null {
                    changed = true
                    return JSONMember(key: member.key, value: .string(Self.placeholder))
                }
                let (inner, innerChanged) = maskedMembers(member.value)
                changed = changed || innerChanged
                return JSONMember(key: member.key, value: inner)
            }
            return (.object(masked), changed)
        case .array(let elements):
            let results = elements.map(maskedMembers)
            return (.array(results.map(\.0)), results.contains { $0.1 })
        case .null, .bool, .number, .string:
            return (value, false)
        }
    }
}
