extension LiteralCredentials {
    /// For a request's flag at `position` that may be given a credential, what hides it and the
    /// position of the last word it covers; nil for any other word. Each flag is read as the parser
    /// reads it (``Parser/flag(in:)``: its value is the next word, or is glued, `-aal:pw`,
    /// `-a"al:pw"`, `--auth=al:pw`), and one rule serves every flag that may be given a credential:
    /// - `-a`/`--auth`, and `-A`/`--auth-type` given no auth type (`-A al:pw`, a slip for `-a`):
    ///   their value after its `:`, else whole (a token, and any value of `-a` under `-A bearer`);
    /// - a flag wsh does not know (`-vaal:pw`, `--auth:al:pw`, `-vA`): what is written after its
    ///   first `:`; a value after its `=` (`--authh=tok`) as `-a`'s;
    /// - when what the flag is given holds no `:` (`-auth al:pw`, a slip for `--auth`, is `-a`
    ///   given `uth`), the next word from its `:`, unless it is a flag: it may be the one meant.
    static func flagCredentials(_ statement: [Word], at position: Int, bearer: Bool, bytes: [UInt8]) -> ([Replacement], Int)? {
        guard let (name, attached) = Parser.flag(in: statement[position]), !isKnownNoCredentialFlag(name) else { return nil }
        let isKnown = knownFlagNames.contains(name)
        var last = position
        var given = attached ?? statement[position]
        if isKnown, attached == nil {
            guard position + 1 < statement.count else { return ([], position) }
            last += 1
            given = statement[last]
        }
        if ["-A", "--auth-type"].contains(name), let type = given.literal, RequestFlags.AuthType(rawValue: type.lowercased()) != nil {
            return ([], last)
        }
        let isToken = bearer && ["-a", "--auth"].contains(name)
        if isToken { return (hiddenWhole(given), last) }
        let colon = [UInt8(ascii: ":")]
        let hasSeparator = firstSeparator(in: given, bytes: bytes, separators: colon) != nil
        var replacements = isKnown || attached != nil || hasSeparator ? hiddenAfterSeparator(given, bytes: bytes) : []
        guard !hasSeparator, hasLiteralText(given.parts[...]), last + 1 < statement.count, Parser.flag(in: statement[last + 1]) == nil,
              let (separator, index) = firstSeparator(in: statement[last + 1], bytes: bytes, separators: colon) else { return (replacements, last) }
        last += 1
        replacements += hiddenAfter(separator, ofPart: index, in: statement[last], bytes: bytes)
        return (replacements, last)
    }

    /// Whether a request says `-A bearer` (`--auth-type=bearer`, `-A"bearer"`): `-a` is then given a token.
    static func saysBearer(_ statement: [Word]) -> Bool {
        statement.indices.contains { position in
            guard let (name, attached) = Parser.flag(in: statement[position]), ["-A", "--auth-type"].contains(name) else { return false }
            let value = attached ?? (position + 1 < statement.count ? statement[position + 1] : nil)
            return value?.literal?.lowercased() == "bearer"
        }
    }

    /// The flags of a request (``RequestFlags/names``) and of a call (`--all`).
    static let knownFlagNames = RequestFlags.names.union(["-S", "--stream", "--all", "--max-pages"])

    /// A known flag that is never given a credential: all but `-a`, `--auth`, `-A` and `--auth-type`.
    private static func isKnownNoCredentialFlag(_ name: String) -> Bool {
        knownFlagNames.contains(name) && !["-a", "--auth", "-A", "--auth-type"].contains(name)
    }
}
