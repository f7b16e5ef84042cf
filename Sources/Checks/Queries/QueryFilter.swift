/// A filter after `|` (LANGUAGE.md, "Filters"), with its arguments.
public enum QueryFilter: Sendable, Equatable {
    /// `count` is Hurl's name for `length`.
    case length, count, keys, values, first, last, nth(Int)
    case toInt, toFloat, toString
    case split(String), join(String), replace(String, String)
    case upper, lower, trim
    case urlEncode, urlDecode, base64Encode, base64Decode, htmlEscape, htmlUnescape
    /// `urlQueryParam NAME`: the value of a parameter in a URL's query, decoded.
    case urlQueryParam(String)
    /// Base64 in the URL and file name alphabet (`-` and `_`, RFC 4648 section 5), without `=`.
    case base64UrlSafeEncode, base64UrlSafeDecode
    /// Text to its UTF-8 bytes, and bytes to text (what is not UTF-8 becomes U+FFFD).
    case utf8Encode, utf8Decode
    /// `charsetDecode NAME`: bytes read as text in a charset (`gb2312`, `latin1`, `shift_jis`).
    case charsetDecode(String)
    /// Hex digests, and the hex of bytes or of a string's UTF-8 bytes (`toHex` is Hurl's name for `hex`).
    case sha256, md5, hex, toHex
    /// `toDate [FORMAT]`: ISO 8601 by default, else strftime codes; gives the date in ISO 8601 (UTC).
    case toDate(String?)
    /// `format FORMAT`: a date in strftime codes (`dateFormat` is Hurl's name for it).
    case format(String), dateFormat(String)
    case daysBeforeNow, daysAfterNow
    /// The first capture group of the first match, else the whole match.
    case regex(String)
    /// Every match of a pattern replaced; `$1` in the replacement is the first group.
    case replaceRegex(String, String)
    /// An RFC 9535 JSONPath query on the value (JSON text is parsed first).
    case jsonpath(String)
    /// An XPath 1.0 expression on HTML or XML text.
    case xpath(String)

    /// Each filter's name and how many arguments it takes.
    public static let arities: [(name: String, arguments: Int)] = [
        ("length", 0), ("count", 0), ("keys", 0), ("values", 0), ("first", 0), ("last", 0), ("nth", 1),
        ("toInt", 0), ("toFloat", 0), ("toString", 0), ("split", 1), ("join", 1), ("replace", 2), ("replaceRegex", 2),
        ("upper", 0), ("lower", 0), ("trim", 0), ("urlEncode", 0), ("urlDecode", 0), ("urlQueryParam", 1),
        ("base64Encode", 0), ("base64Decode", 0), ("base64UrlSafeEncode", 0), ("base64UrlSafeDecode", 0),
        ("utf8Encode", 0), ("utf8Decode", 0), ("charsetDecode", 1), ("regex", 1), ("sha256", 0), ("md5", 0), ("hex", 0), ("toHex", 0), ("htmlEscape", 0), ("htmlUnescape", 0),
        ("toDate", 0), ("format", 1), ("dateFormat", 1), ("daysBeforeNow", 0), ("daysAfterNow", 0), ("jsonpath", 1), ("xpath", 1),
    ]

    /// The filter `name` with `arguments` (as many as ``arities`` says); nil for an unknown name or a bad number.
    public init?(name: String, arguments: [String]) {
        switch (name, arguments.count) {
        case ("length", 0): self = .length
        case ("count", 0): self = .count
        case ("keys", 0): self = .keys
        case ("values", 0): self = .values
        case ("first", 0): self = .first
        case ("last", 0): self = .last
        case ("nth", 1): guard let n = Int(arguments[0]) else { return nil }; self = .nth(n)
        case ("toInt", 0): self = .toInt
        case ("toFloat", 0): self = .toFloat
        case ("toString", 0): self = .toString
        case ("split", 1): self = .split(arguments[0])
        case ("join", 1): self = .join(arguments[0])
        case ("replace", 2): self = .replace(arguments[0], arguments[1])
        case ("replaceRegex", 2): self = .replaceRegex(arguments[0], arguments[1])
        case ("jsonpath", 1): self = .jsonpath(arguments[0])
        case ("xpath", 1): self = .xpath(arguments[0])
        case ("upper", 0): self = .upper
        case ("lower", 0): self = .lower
        case ("trim", 0): self = .trim
        case ("urlEncode", 0): self = .urlEncode
        case ("urlDecode", 0): self = .urlDecode
        case ("urlQueryParam", 1): self = .urlQueryParam(arguments[0])
        case ("base64Encode", 0): self = .base64Encode
        case ("base64Decode", 0): self = .base64Decode
        case ("base64UrlSafeEncode", 0): self = .base64UrlSafeEncode
        case ("base64UrlSafeDecode", 0): self = .base64UrlSafeDecode
        case ("utf8Encode", 0): self = .utf8Encode
        case ("utf8Decode", 0): self = .utf8Decode
        case ("charsetDecode", 1): self = .charsetDecode(arguments[0])
        case ("regex", 1): self = .regex(arguments[0])
        case ("htmlEscape", 0): self = .htmlEscape
        case ("htmlUnescape", 0): self = .htmlUnescape
        case ("sha256", 0): self = .sha256
        case ("md5", 0): self = .md5
        case ("hex", 0): self = .hex
        case ("toHex", 0): self = .toHex
        case ("toDate", 0): self = .toDate(nil)
        case ("toDate", 1): self = .toDate(arguments[0])
        case ("format", 1): self = .format(arguments[0])
        case ("dateFormat", 1): self = .dateFormat(arguments[0])
        case ("daysBeforeNow", 0): self = .daysBeforeNow
        case ("daysAfterNow", 0): self = .daysAfterNow
        default: return nil
        }
    }

    /// What is wrong with the filter's argument, in the user's words (an unknown strftime code);
    /// nil when nothing is.
    public var argumentProblem: String? {
        let format: String
        switch self {
        case .toDate(let written?), .format(let written), .dateFormat(let written): format = written
        default: return nil
        }
        do {
            _ = try StrftimeFormat(format)
            return nil
        } catch {
            return error.message
        }
    }

    /// The filter's name, for messages.
    public var name: String {
        switch self {
        case .length: "length"
        case .count: "count"
        case .keys: "keys"
        case .values: "values"
        case .first: "first"
        case .last: "last"
        case .nth: "nth"
        case .toInt: "toInt"
        case .toFloat: "toFloat"
        case .toString: "toString"
        case .split: "split"
        case .join: "join"
        case .replace: "replace"
        case .replaceRegex: "replaceRegex"
        case .jsonpath: "jsonpath"
        case .xpath: "xpath"
        case .upper: "upper"
        case .lower: "lower"
        case .trim: "trim"
        case .urlEncode: "urlEncode"
        case .urlDecode: "urlDecode"
        case .urlQueryParam: "urlQueryParam"
        case .base64Encode: "base64Encode"
        case .base64Decode: "base64Decode"
        case .base64UrlSafeEncode: "base64UrlSafeEncode"
        case .base64UrlSafeDecode: "base64UrlSafeDecode"
        case .utf8Encode: "utf8Encode"
        case .utf8Decode: "utf8Decode"
        case .charsetDecode: "charsetDecode"
        case .regex: "regex"
        case .htmlEscape: "htmlEscape"
        case .htmlUnescape: "htmlUnescape"
        case .sha256: "sha256"
        case .md5: "md5"
        case .hex: "hex"
        case .toHex: "toHex"
        case .toDate: "toDate"
        case .format: "format"
        case .dateFormat: "dateFormat"
        case .daysBeforeNow: "daysBeforeNow"
        case .daysAfterNow: "daysAfterNow"
        }
    }
}
