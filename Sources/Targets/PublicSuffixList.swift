import Foundation

/// The Public Suffix List (https://publicsuffix.org): the domains under which anyone may register a
/// name (`com`, `co.uk`, `herokuapp.com`). The cookie jar refuses a `Domain` that is one (RFC 6265
/// 5.3 step 5), as curl (libpsl) and browsers do, so one site cannot set cookies for all the others.
///
/// Read from Debian's `publicsuffix` package, ``systemPath``. Without that file only the list's
/// default rule is left: a single label (`com`, `uk`) is a public suffix.
public struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package puts the list.
    public static let systemPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The list at ``systemPath``, read once, on first use.
    public static let system = PublicSuffixList(contentsOfFile: systemPath)

    /// Rules as written (`co.uk`), wildcard rules without their `*.` (`ck` for `*.ck`), and
    /// exceptions without their `!` (`www.ck`).
    private var rules: Set<String> = []
    private var wildcards: Set<String> = []
    private var exceptions: Set<String> = []

    /// Whether the list was read from a file (false: only the default rule applies).
    public private(set) var isLoaded = false

    /// The list in `text`, in the list's own format: a rule a line, `//` comments.
    public init(text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            guard let token = line.split(whereSeparator: \.isWhitespace).first, !token.hasPrefix("//") else { continue }
            let rule = token.lowercased()
            if rule.hasPrefix("!") {
                exceptions.insert(String(rule.dropFirst()))
            } else if rule.hasPrefix("*.") {
                wildcards.insert(String(rule.dropFirst(2)))
            } else {
                rules.insert(rule)
            }
        }
        isLoaded = true
    }

    /// The list in the file at `path`, or only the default rule when it cannot be read.
    public init(contentsOfFile path: String) {
        if let data = FileManager.default.contents(atPath: path) {
            self.init(text: String(decoding: data, as: UTF8.self))
        } else {
            self.init(text: "")
            isLoaded = false
        }
    }

    /// Whether `domain` (lowercase, no leading or trailing dot) is a public suffix: listed, under a
    /// wildcard rule and not an exception, or a single label.
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard let dot = domain.firstIndex(of: ".") else { return true }
        if exceptions.contains(domain) { return false }
        return rules.contains(domain) || wildcards.contains(String(domain[domain.index(after: dot)...]))
    }
}
