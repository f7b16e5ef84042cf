import Foundation

extension Redaction {
    /// A response body as a recording saves it, so that no secret is written to disk:
    /// - a body that parses as JSON, whatever its media type says, keeps its shape: members named
    ///   like secrets (``isSensitiveKey(_:)``) get the value `"***"`, and a secret value inside a
    ///   string, a key or a number becomes `***` (a number, the string `"***"`), so the file stays
    ///   JSON; when anything was masked it is written again, indented, else kept byte for byte;
    /// - a url-encoded form has its sensitive fields and secret values masked;
    /// - any other body has every form of every secret value (``SecretForms``) replaced by `***`
    ///   byte for byte, so a binary body is never decoded and re-encoded.
    public func maskedForRecording(_ body: Data, contentType: String?) -> Data {
        if let contentType, Self.isForm(contentType) {
            return Data(maskedBody(body, contentType: contentType).utf8)
        }
        // Most bodies have nothing to mask, which their bytes show without parsing them.
        if Self.namesNothingSensitive(body), secrets.mask(body) == body { return body }
        return maskedJSONOrText(body, contentType: contentType) { member in isSensitiveKey(member.key) && member.value != .null }
    }

    /// `body` with the members `masksMember` picks and every secret value masked: JSON rewritten,
    /// indented, when anything changed; XML with its elements named like secrets masked; other text
    /// masked byte for byte.
    func maskedJSONOrText(_ body: Data, contentType: String?, masksMember: (JSONMember) -> Bool) -> Data {
        // Whatever its media type says: a JSON body served as text or octet-stream holds secrets as JSON.
        // Only an object or an array has members to mask by name; a scalar is masked by value below.
        if Self.opensJSONContainer(body), let json = try? JSONValue.parse(body) {
            let (masked, changed) = recordingMasked(json, masksMember: masksMember)
            if changed { return Data((masked.prettyText + "\n").utf8) }
        }
        if Self.looksLikeXML(body, contentType: contentType), let masked = maskedElements(Array(body)) {
            return secrets.mask(Data(masked))
        }
        // Text that holds JSON without being one document (NDJSON, an event stream): its escaped
        // literals are read too.
        if body.contains(UInt8(ascii: "\\")), let text = String(data: body, encoding: .utf8) { return Data(maskedDecodingJSON(text).utf8) }
        return secrets.mask(body)
    }

    /// The first `limit` bytes of `body` masked as ``maskedForRecording(_:contentType:)`` masks it,
    /// and the size of the whole so masked. When the bytes to keep, and 64 KB after them, hold
    /// nothing to mask, as written and with their JSON escapes read, the rest is not looked at (it
    /// is not kept): a large answer costs no more than the part of it that is kept, and no secret
    /// can lie across the cut.
    public func maskedForRecording(_ body: Data, contentType: String?, keeping limit: Int) -> (kept: Data, size: Int) {
        if body.count > limit, !(contentType.map(Self.isForm) ?? false) {
            let window = body.prefix(limit + (64 << 10))
            if holdsNothingToMask(window) { return (body.prefix(limit), body.count) }
        }
        let masked = maskedForRecording(body, contentType: contentType)
        return (masked.count > limit ? masked.prefix(limit) : masked, masked.count)
    }

    /// Whether `text` names nothing sensitive and holds no secret, as written and, where it has
    /// escapes (`\u006b` is `k`, `\/` a `/`), with them read as JSON reads them.
    private func holdsNothingToMask(_ text: Data) -> Bool {
        if Self.namesNothingSensitive(text) { return secrets.mask(text) == text }
        guard let read = Self.escapesRead(text) else { return false }
        return Self.namesNone(of: Self.sensitiveKeyFinder, in: read, escapesRead: true)
            && secrets.mask(read) == read && secrets.mask(text) == text
    }

    /// ``namesNothingSensitive(_:)`` of `body` with its JSON escapes read, where it has some: a
    /// large answer whose strings escape a quote or a backslash need not be parsed to find that it
    /// names nothing.
    public static func namesNothingSensitiveOnceRead(_ body: Data) -> Bool {
        if namesNothingSensitive(body) { return true }
        guard let read = escapesRead(body) else { return false }
        return namesNone(of: sensitiveKeyFinder, in: read, escapesRead: true)
    }

    /// `text` with its JSON escapes read; nil when it has none.
    private static func escapesRead(_ text: Data) -> Data? {
        text.contains(UInt8(ascii: "\\")) ? Data(JSONEscapes.read(text)) : nil
    }

    /// Whether a content type says `x-www-form-urlencoded`, in any case.
    static func isForm(_ contentType: String) -> Bool {
        let form = formMediaSubtype
        var type = contentType
        return type.withUTF8 { bytes in
            guard bytes.count >= form.count else { return false }
            return (0...(bytes.count - form.count)).contains { start in
                form.indices.allSatisfy { asciiLowercased(bytes[start + $0]) == form[$0] }
            }
        }
    }

    /// Made once: an array made on each call cost more than the search (every recorded body is asked).
    private static let formMediaSubtype = Array("x-www-form-urlencoded".utf8)

    /// Whether no JSON text in `body` can be or hold a sensitive name (``isSensitiveKey(_:)``):
    /// no part of one in ASCII of any case, no backslash (an escape such as `\u006b` could spell
    /// one, or a secret), and no Kelvin sign (which lowercases to `k`). With no secret value in it
    /// either, masking for a recording leaves such a body as it is.
    public static func namesNothingSensitive(_ body: Data) -> Bool {
        namesNone(of: sensitiveKeyFinder, in: body)
    }

    /// Whether no JSON text in `body` can be or hold a word `finder` finds: as
    /// ``namesNothingSensitive(_:)`` says, for any list of words.
    /// With `escapesRead`, `body`'s JSON escapes are read already (``JSONEscapes``), and a
    /// backslash left in it is text.
    static func namesNone(of finder: ASCIIPartFinder, in body: Data, escapesRead: Bool = false) -> Bool {
        body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let base = raw.baseAddress else { return true }
            if !escapesRead, memchr(base, Int32(UInt8(ascii: "\\")), raw.count) != nil { return false }
            // U+212A KELVIN SIGN in UTF-8.
            var from = base
            var left = raw.count
            while left >= 3, let found = memchr(from, 0xE2, left) {
                let kelvin = found.assumingMemoryBound(to: UInt8.self)
                let offset = UnsafeRawPointer(found) - base
                if offset + 2 < raw.count, kelvin[1] == 0x84, kelvin[2] == 0xAA { return false }
                from = UnsafeRawPointer(found) + 1
                left = raw.count - offset - 1
            }
            return !finder.occurs(in: bytes)
        }
    }

    /// `value` with the members `masksMember` picks and secret values masked; whether anything changed.
    private func recordingMasked(_ value: JSONValue, masksMember: (JSONMember) -> Bool) -> (JSONValue, Bool) {
        switch value {
        case .object(let members):
            var changed = false
            let masked = members.map { member -> JSONMember in
                let key = mask(member.key)
                changed = changed || key != member.key
                if masksMember(member) {
                    changed = changed || member.value != .string(Self.placeholder)
                    return JSONMember(key: key, value: .string(Self.placeholder))
                }
                let (inner, innerChanged) = recordingMasked(member.value, masksMember: masksMember)
                changed = changed || innerChanged
                return JSONMember(key: key, value: inner)
            }
            return (.object(masked), changed)
        case .array(let elements):
            let results = elements.map { recordingMasked($0, masksMember: masksMember) }
            return (.array(results.map(\.0)), results.contains { $0.1 })
        case .string(let text):
            // A string holding JSON (httpbin's `data`) may hold a secret escaped once more.
            let masked = maskedDecodingJSON(text)
            return (.string(masked), masked != text)
        case .number(let literal):
            return mask(literal) == literal ? (value, false) : (.string(Self.placeholder), true)
        case .null, .bool:
            return (value, false)
        }
    }
}
