import Crypto
import Foundation
import Targets

/// Bytes between filters: `base64Decode`, `base64UrlSafeDecode` and `utf8Encode` make bytes, and
/// the next filter takes them as bytes (as Hurl's filters do), so that `| base64Decode | toHex`
/// gives the hex of every byte decoded, UTF-8 or not.
extension QueryFilters {
    /// What goes from one filter to the next.
    enum Piped {
        case value(JSONValue)
        case bytes([UInt8])

        /// The value a query ends with: bytes give their text when they are UTF-8, else their
        /// `hex:` literal, as `print bytes` writes them.
        var result: JSONValue {
            switch self {
            case .value(let value): value
            case .bytes(let bytes): .string(String(validating: bytes, as: UTF8.self) ?? ByteLiteral.text(bytes))
            }
        }
    }

    /// `filters` applied in turn to `value`, bytes made by one going on to the next as bytes; a
    /// filter that cannot apply throws a ``Failure``, Ctrl-C (task cancellation) a `CancellationError`.
    public static func apply(_ filters: some Sequence<QueryFilter>, to value: JSONValue) throws -> JSONValue {
        var piped = Piped.value(value)
        for filter in filters {
            piped = try step(filter, piped)
        }
        return piped.result
    }

    /// One filter on what the one before gave. On bytes, a filter that takes bytes (``byteFilter(_:_:)``)
    /// takes them, and any other reads them as UTF-8 text, which they must be.
    static func step(_ filter: QueryFilter, _ piped: Piped) throws -> Piped {
        switch piped {
        case .bytes(let bytes):
            if let value = try byteFilter(filter, bytes) { return .value(value) }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Failure(message: "'| \(filter.name)' needs text, found bytes that are not UTF-8: \(ByteLiteral.text(bytes).shortened(80)); "
                              + "utf8Decode or charsetDecode NAME makes text of them")
            }
            return try step(filter, .value(.string(text)))
        case .value(.string(let text)):
            switch filter {
            case .base64Decode:
                guard let decoded = ByteLiteral.base64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    throw Failure(message: "'| base64Decode' needs base64 text, found a string: \(text.shortened(80))")
                }
                return .bytes(decoded)
            case .base64UrlSafeDecode:
                guard let bytes = base64URLDecoded(text) else {
                    throw Failure(message: "'| base64UrlSafeDecode' needs base64url text (A-Z a-z 0-9 - _), found a string: \(text.shortened(80))")
                }
                return .bytes(bytes)
            case .utf8Encode:
                return .bytes(Array(text.utf8))
            default:
                return .value(try valueFilter(filter, .string(text)))
            }
        case .value(let value):
            return .value(try valueFilter(filter, value))
        }
    }

    /// The first filter after `bytes`, on the body's bytes: their count, digests, hex, base64, their
    /// text (as UTF-8, or in a charset), or an XPath on them; any other filter needs text and says so.
    public static func apply(_ filter: QueryFilter, toBytes bytes: [UInt8]) throws -> JSONValue {
        if case .xpath(let expression) = filter { return try xPath(expression, on: bytes, markup: nil, encoding: nil) }
        guard let value = try byteFilter(filter, bytes) else {
            throw Failure(message: "'| \(filter.name)' needs text, found the body's bytes; bytes take length, count, sha256, md5, "
                          + "hex, toHex, base64Encode, base64UrlSafeEncode, toString, utf8Decode, charsetDecode and xpath, or query body for its text")
        }
        return value
    }

    /// A filter that takes bytes, on bytes; nil for any other filter.
    static func byteFilter(_ filter: QueryFilter, _ bytes: [UInt8]) throws -> JSONValue? {
        switch filter {
        case .length, .count: .number(String(bytes.count))
        case .sha256: .string(ByteLiteral.hex(SHA256.hash(data: bytes)))
        case .md5: .string(ByteLiteral.hex(Insecure.MD5.hash(data: bytes)))
        case .hex, .toHex: .string(ByteLiteral.hex(bytes))
        case .base64Encode: .string(Data(bytes).base64EncodedString())
        case .base64UrlSafeEncode: .string(base64URLEncoded(bytes))
        case .toString, .utf8Decode: .string(String(decoding: bytes, as: UTF8.self))
        case .charsetDecode(let charset): .string(try decoded(bytes, charset: charset))
        default: nil
        }
    }

    /// `charsetDecode NAME`: every byte must be text in the charset.
    private static func decoded(_ bytes: [UInt8], charset: String) throws -> String {
        switch CharsetDecoding.text(bytes, charset: charset) {
        case .success(let text):
            return text
        case .failure(.unknownCharset):
            throw Failure(message: "'| charsetDecode': '\(charset.shortened())' is not a charset this system knows (utf-8, latin1, gb2312, shift_jis, ...)")
        case .failure(.notText(let offset)):
            let around = bytes[offset..<min(offset + 8, bytes.count)]
            throw Failure(message: "'| charsetDecode \(charset.shortened())': byte \(offset) starts no \(charset.shortened()) character (hex:\(ByteLiteral.hex(around))...)")
        }
    }

    /// Base64 in RFC 4648's URL and file name alphabet, without padding, as Hurl's `base64UrlSafeEncode` writes it.
    static func base64URLEncoded(_ bytes: [UInt8]) -> String {
        var text = ""
        for character in Data(bytes).base64EncodedString() {
            switch character {
            case "+": text.append("-")
            case "/": text.append("_")
            case "=": break
            default: text.append(character)
            }
        }
        return text
    }

    /// Base64url text's bytes, with its `=` padding or without (RFC 4648, section 5, leaves it to the
    /// application), blanks and line breaks skipped; nil for a character outside the alphabet, `+` and `/` included.
    static func base64URLDecoded(_ text: String) -> [UInt8]? {
        var standard = ""
        for character in text {
            switch character {
            case " ", "\t", "\n", "\r": break
            case "-": standard.append("+")
            case "_": standard.append("/")
            case "+", "/": return nil
            default: standard.append(character)
            }
        }
        let unpadded = standard.prefix { $0 != "=" }
        let padded = String(unpadded) + String(repeating: "=", count: (4 - unpadded.count % 4) % 4)
        // Padding, when written, must be the padding the length needs.
        guard standard.count == unpadded.count || standard == padded else { return nil }
        return ByteLiteral.base64(padded)
    }
}
