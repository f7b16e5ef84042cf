import Foundation

extension Redaction {
    /// This redaction plus, as secret values, what `request` sends as credentials
    /// (``sentSecrets(of:)``). A response that echoes them back is then masked too.
    public func including(secretsOf request: Request) -> Redaction {
        if request.headers.isEmpty, request.body == nil, !request.url.containsByte(UInt8(ascii: "?")), !request.url.containsByte(UInt8(ascii: "@")) {
            return self
        }
        let added = sentSecrets(of: request).map(\.value).filter { $0.count >= SecretForms.minimumLength && !secretValues.contains($0) }
        return added.isEmpty ? self : Redaction(secrets: secrets.adding(added))
    }

    /// What `request` sends as credentials, each with the name it is sent under: a URL's password;
    /// the values of query items (also in a query a query value holds percent-encoded, as a URL to
    /// redirect to does), form fields (url-encoded, or multipart text parts), JSON members
    /// and XML elements whose names are credentials' (``isCredentialName(_:)``: `appid`,
    /// `api_key`, `accessToken`, not `keyword` or `max_tokens`);
    /// of headers so named, and of `Authorization` the credential after its scheme (`token` after
    /// `Bearer`, `password` for Basic's, decoded too); and in a `Cookie` line, the
    /// values of cookies named like secrets or sessions (`session_token`, `sid`, `PHPSESSID`).
    public func sentSecrets(of request: Request) -> [(name: String, value: String)] {
        var secrets: [(name: String, value: String)] = []
        // Most URLs have neither a password nor a query.
        if request.url.containsByte(UInt8(ascii: "@")) || request.url.containsByte(UInt8(ascii: "?")) {
            let (beforeQuery, query) = request.url.split(once: UInt8(ascii: "?"))
            secrets += Self.userInfoPassword(beforeQuery.split(once: UInt8(ascii: "#")).0).map { ("password", $0) }
            // Everything after the first `?`, up to a `#`: a base URL with a fragment gets its query after it.
            if let query { secrets += credentialPairs(query.split(once: UInt8(ascii: "#")).0) }
        }
        secrets += credentials(in: request.headers)
        if let body = request.body, !body.isEmpty {
            let type = request.header("Content-Type") ?? ""
            // A JSON text sent with a form's type (curl's default for `-d`) holds its credentials as JSON.
            let nothingSensitive = Self.namesNothingSensitiveOnceRead(body)
            // Only an object or an array has members (and a 200 MB upload is not copied to be parsed).
            let json = nothingSensitive || !Self.opensJSONContainer(body) ? nil : try? JSONValue.parseKeepingDuplicates(body)
            if let json {
                secrets += Self.credentialMembers(json)
            } else if Self.isForm(type) {
                secrets += credentialPairs(String(decoding: body, as: UTF8.self))
            } else if nothingSensitive {
                // No credential's name is written in the body: no part or element is named as one.
            } else if let parts = MultipartParts.parse(body, contentType: type) {
                // A multipart form is a form: its text fields named as credentials are too.
                secrets += parts.compactMap { part -> (name: String, value: String)? in
                    guard part.filename == nil, isSensitiveKey(part.name), Self.isCredentialName(part.name) else { return nil }
                    return (part.name, String(decoding: part.content, as: UTF8.self))
                }
            } else if Self.looksLikeXML(body, contentType: type) {
                secrets += credentialElements(Array(body))
            }
        }
        return secrets.filter { !$0.value.isEmpty && $0.value != Self.placeholder }
    }

    /// The credentials `headers` carry: in a `Cookie` or `Set-Cookie` line, the values of cookies
    /// named like secrets or sessions (not the line: `lang=en; Path=/` is no secret); of headers
    /// named as credentials (and `Authorization`...), the value, or the credential after an
    /// `Authorization` scheme.
    func credentials(in headers: [Header]) -> [(name: String, value: String)] {
        var secrets: [(name: String, value: String)] = []
        for header in headers {
            if header.name.utf8.count == 6 && header.name.hasASCIIPrefixIgnoringCase("cookie")
                || header.name.utf8.count == 10 && header.name.hasASCIIPrefixIgnoringCase("set-cookie") {
                secrets += sensitiveCookieValues(header.value)
            } else if isSensitiveName(header.name), Self.isCredentialName(header.name) || Self.sensitiveHeaderNames.contains(header.name.lowercased()) {
                let credentials = Self.credentials(inAuthorization: header)
                secrets += credentials.isEmpty ? [(header.name, header.value)] : credentials
            }
        }
        return secrets
    }

    /// Whether a query item's, field's or header's name is a credential's: one of its words (split
    /// at `_`, `-`, `.` and between a small letter and a capital) ends with a part of
    /// ``sensitiveKeyParts`` (`api_key`, `X-API-Key`, `accessToken`, `authtoken`, `appid`). Stricter
    /// than ``isSensitiveKey(_:)``, which masks a field by its name wherever it is shown: a value
    /// masked by value is masked everywhere it appears, and `keyword=London` must not hide London.
    public static func isCredentialName(_ name: String) -> Bool {
        nameWords(name).contains { word in
            let lowered = word.lowercased()
            return credentialWordEndings.contains { lowered.hasSuffix($0) }
        }
    }

    /// `accessToken`, `access_token`, `X-Access-Token` as their words, as written: split at any
    /// character that is no letter or digit, and between a small letter and a capital.
    static func nameWords(_ name: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in name {
            if !(character.isLetter || character.isNumber) {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                if character.isUppercase, previous?.isLowercase == true {
                    words.append(word)
                    word = ""
                }
                word.append(character)
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    private static let credentialWordEndings = sensitiveKeyParts.filter { !$0.contains("_") }

    /// `a=1&token=x` gives `token`: `x`, percent-decoded, and as written when that differs. A value
    /// that holds a query of its own, percent-encoded (`next=%2Fcb%3Fappid%3Dx`, a URL a redirect
    /// may lead to), gives that query's credentials too, up to `depth` levels down: a hop that
    /// sends it shows it before the hop that sends the credential is known.
    private func credentialPairs(_ pairs: String, depth: Int = 2) -> [(name: String, value: String)] {
        pairs.utf8.split(separator: UInt8(ascii: "&")).flatMap { bytes -> [(name: String, value: String)] in
            let (key, value) = String(Substring(bytes)).split(once: UInt8(ascii: "="))
            guard let value else { return [] }
            let name = PercentEncoding.decode(key[...])
            guard isSensitiveKey(name), Self.isCredentialName(name) else {
                let nested = Self.nestedURLPassword(value).map { (name: "password", value: $0) }
                guard depth > 0, value.contains("%3D") || value.contains("%3d") else { return nested }
                let decoded = PercentEncoding.decode(value[...])
                return nested + credentialPairs(decoded.split(once: UInt8(ascii: "?")).1 ?? decoded, depth: depth - 1)
            }
            let decoded = PercentEncoding.decode(value[...])
            return decoded == value ? [(name, value)] : [(name, decoded), (name, value)]
        }
    }

    /// The string and number values of JSON members named as credentials, at any depth
    /// (``credentialValues(_:named:)``).
    static func credentialMembers(_ value: JSONValue) -> [(name: String, value: String)] {
        switch value {
        case .object(let members):
            members.flatMap { member -> [(name: String, value: String)] in
                isCredentialName(member.key) ? credentialValues(member.value, named: member.key) : credentialMembers(member.value)
            }
        case .array(let elements): elements.flatMap(credentialMembers)
        case .null, .bool, .number, .string: []
        }
    }

    /// The credentials a member named `name`, a credential's name, holds: a string or a number; each
    /// of a list's, at any depth of lists (`"token": ["..."]`, `password[]=...` sent as JSON). An
    /// object under such a name is most often about the credential (`"token": {"expires_in": 3600,
    /// "scopes": [...]}`, `"session": {"user": "alice"}`): only its own members named as
    /// credentials count, but under a name that ends in `password` (`"password": {"old": "...",
    /// "new": "..."}`), whose strings and numbers are passwords.
    private static func credentialValues(_ value: JSONValue, named name: String) -> [(name: String, value: String)] {
        switch value {
        case .string(let text): [(name, text)]
        case .number(let literal): [(name, literal)]
        case .array(let elements): elements.flatMap { credentialValues($0, named: name) }
        case .object(let members) where name.lowercased().hasSuffix("password"):
            members.flatMap { member -> [(name: String, value: String)] in
                switch member.value {
                case .string, .number: credentialValues(member.value, named: name)
                default: credentialMembers(member.value)
                }
            }
        case .object: credentialMembers(value)
        case .null, .bool: []
        }
    }

    /// `Bearer TOKEN` gives `token`: `TOKEN`; `Basic BASE64` gives `password`: the base64 and the
    /// password it holds; nothing for a header that is no Authorization, or has no scheme.
    private static func credentials(inAuthorization header: Header) -> [(name: String, value: String)] {
        let lowered = header.name.lowercased()
        guard lowered == "authorization" || lowered == "proxy-authorization" else { return [] }
        let words = header.value.split(separator: " ", maxSplits: 1)
        guard words.count == 2 else { return [] }
        let credential = String(words[1]).trimmingCharacters(in: .whitespaces)
        guard words[0].lowercased() == "basic", let pair = basicPair(credential), let colon = pair.firstIndex(of: ":") else { return [("token", credential)] }
        return [("password", credential), ("password", String(pair[pair.index(after: colon)...]))]
    }

    /// The `USER:PASSWORD` a Basic credential's base64 holds; nil when it holds no `:`.
    public static func basicPair(_ base64: String) -> String? {
        guard let data = Data(base64Encoded: base64), let pair = String(data: data, encoding: .utf8), pair.contains(":") else { return nil }
        return pair
    }

    /// The password of a URL a query value holds, percent-encoded or not
    /// (`?next=http://eve:pw@host/`, as a URL to redirect to is given): a secret as the
    /// query's own URL's password is (``userInfoPassword(_:)``).
    static func nestedURLPassword(_ value: String) -> [String] {
        guard value.containsByte(UInt8(ascii: "@")) || value.contains("%40") else { return [] }
        return userInfoPassword(PercentEncoding.decode(value[...], plusIsSpace: false))
    }

    /// The password of `scheme://user:password@host`, percent-decoded, and as written when that
    /// differs: a URL a query value holds has it encoded again there (`p%2B1` in the URL,
    /// `p%252B1` in the value, for `p+1`), a form the decoded one's forms do not reach.
    private static func userInfoPassword(_ address: String) -> [String] {
        guard address.containsByte(UInt8(ascii: "@")), let schemeEnd = address.firstRange(of: "://") else { return [] }
        let authority = address[schemeEnd.upperBound...].prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return [] }
        let written = authority[authority.index(after: colon)..<at]
        let password = PercentEncoding.decode(written, plusIsSpace: false)
        return password == written ? [password] : [password, String(written)]
    }

    /// The cookies in a `Cookie` line whose names are sensitive, with their values, split as bytes.
    private func sensitiveCookieValues(_ line: String) -> [(name: String, value: String)] {
        var line = line
        return line.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return [] }
            // memchr finds the separators.
            func offset(of byte: UInt8, from start: Int, to end: Int) -> Int? {
                memchr(base + start, Int32(byte), end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
            }
            var values: [(name: String, value: String)] = []
            var start = 0
            while start < bytes.count {
                let end = offset(of: UInt8(ascii: ";"), from: start, to: bytes.count) ?? bytes.count
                if let equals = offset(of: UInt8(ascii: "="), from: start, to: end) {
                    let name = bytes[start..<equals].trimmingSpacesAndTabs
                    let sensitive = Self.isSensitiveCookieName(ascii: UnsafeBufferPointer(rebasing: name))
                        ?? isSensitiveCookieName(String(decoding: name, as: UTF8.self))
                    if sensitive { values.append((String(decoding: name, as: UTF8.self), bytes[(equals + 1)..<end].textTrimmingSpacesAndTabs)) }
                }
                start = end + 1
            }
            return values
        }
    }
}
