import Foundation

extension Redaction {
    /// A response body as `set record` writes it into a sample file, which users commit: as
    /// ``maskedForRecording(_:contentType:)`` masks it (secret values; a member under a sensitive
    /// name, but a `true` or `false` there: `"credentialsRequired": true` is kept), and also a
    /// string member named as a credential (``isRecordedCredentialName(_:)``), then credentials
    /// known by their shape wherever they are (``maskedCredentialShapes(_:)``). A body with
    /// nothing to mask is kept byte for byte.
    public func maskedForSample(_ body: Data, contentType: String?) -> Data {
        if let contentType, Self.isForm(contentType) {
            return Self.maskedCredentialShapes(Data(maskedBody(body, contentType: contentType).utf8))
        }
        // Most bodies have nothing to mask by name or value, which their bytes show without parsing them.
        if Self.namesNone(of: Self.recordedNameFinder, in: body), secrets.mask(body) == body {
            return Self.maskedCredentialShapes(body)
        }
        let masked = maskedJSONOrText(body, contentType: contentType) { member in
            switch member.value {
            case .null, .bool: return false
            case .string(let text) where text == Self.placeholder: return false
            case .string: return isSensitiveKey(member.key) || Self.isRecordedCredentialName(member.key)
            default: return isSensitiveKey(member.key)
            }
        }
        return Self.maskedCredentialShapes(masked)
    }

    /// Whether a JSON member's name says its string value is a credential: its last word
    /// (words split at `_`, `-`, `.` and camelCase) is one of ``credentialWords``, or it ends in
    /// `session id`. `access_token`, `clientSecret`, `X-Api-Key` are; `token_type`, `tokenCount`,
    /// `credentialsRequired`, `keyword`, `max_tokens` are not. Used for recordings only: the
    /// other masks judge names by ``isSensitiveKey(_:)`` and ``isCredentialName(_:)``.
    public static func isRecordedCredentialName(_ name: String) -> Bool {
        let words = nameWords(name).map { $0.lowercased() }
        guard let last = words.last else { return false }
        return credentialWords.contains(last) || (last == "id" && words.dropLast().last == "session")
    }

    /// The last words of a name that make a string under it a credential, lowercase.
    public static let credentialWords: Set<String> = [
        "token", "secret", "password", "passwd", "passphrase", "key", "apikey", "appid",
        "credential", "credentials", "session", "sessionid", "jwt", "authorization", "cookie",
    ]

    /// Finds a part of a name a recording masks (``credentialWords``, ``sensitiveKeyParts``) in
    /// ASCII text, in one pass, to pass over bodies that hold none.
    static let recordedNameFinder = ASCIIPartFinder(Array(credentialWords) + sensitiveKeyParts)
}
