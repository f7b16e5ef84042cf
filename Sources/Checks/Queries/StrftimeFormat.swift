/// A strftime format read into its parts, with the codes of chrono, the library Hurl's `toDate`
/// and `dateFormat` use (docs.rs/chrono, `format::strftime`): the same codes, the same padding
/// modifiers (`%-d`, `%_d`, `%0e`), and an unknown code is an error that names it.
struct StrftimeFormat {
    /// A number a code reads or writes.
    enum Number: Equatable {
        case year, century, yearOfCentury, isoYear, isoYearOfCentury, month, day, ordinal
        case weekFromSunday, weekFromMonday, isoWeek, weekdayFromSunday, weekdayFromMonday
        case hour, hour12, minute, second, nanosecond, timestamp

        /// Its digits: as many as it is padded to, and at most as many as it reads.
        var width: Int {
            switch self {
            case .year, .isoYear: 4
            case .ordinal: 3
            case .weekdayFromSunday, .weekdayFromMonday: 1
            case .nanosecond: 9
            // As many as an Int holds whatever the digits are.
            case .timestamp: 18
            default: 2
            }
        }
    }

    enum Pad: Equatable { case zero, space, none }

    enum Item: Equatable {
        /// Text as written; blanks are ``space``.
        case literal(String)
        /// Blanks: written as they are, and any number of blanks (none too) when read.
        case space(String)
        case number(Number, Pad)
        case monthName(long: Bool)
        case weekdayName(long: Bool)
        case amPm(upper: Bool)
        /// `%.f` (nil digits: 0, 3, 6 or 9 as needed), `%.3f`, `%3f`...
        case fraction(digits: Int?, dot: Bool)
        /// `%Z`: UTC when written; when read, UTC, GMT, UT or Z.
        case zoneName
        /// `%z` `+0000`, `%:z` `+00:00`, `%::z` `+00:00:00`, `%:::z` `+00`; `%#z` reads minutes or none.
        case offset(colons: Int)
        /// `%+`: RFC 3339, `2026-11-25T08:00:00.511+00:00`.
        case rfc3339
    }

    /// Why a format cannot be used, in the user's terms.
    struct Problem: Error, Equatable {
        var message: String
    }

    let items: [Item]

    /// The codes, for a message about one that is not among them.
    static let codes = "%Y %C %y %m %b %B %h %d %e %a %A %w %u %U %W %G %g %V %j %D %x %F %v %H %k %I %l %P %p %M %S "
        + "%f %.f %.3f %.6f %.9f %3f %6f %9f %R %T %X %r %Z %z %:z %::z %:::z %#z %c %+ %s %t %n %%, and %-X %_X %0X to pad a number"

    init(_ format: String) throws(Problem) {
        var items: [Item] = []
        var rest = format[...]
        while let first = rest.first {
            if first == "%" {
                let (parsed, after) = try Self.code(rest)
                items += parsed
                rest = after
            } else if first.isWhitespace {
                let blanks = rest.prefix { $0.isWhitespace }
                items.append(.space(String(blanks)))
                rest = rest[blanks.endIndex...]
            } else {
                let text = rest.prefix { !$0.isWhitespace && $0 != "%" }
                items.append(.literal(String(text)))
                rest = rest[text.endIndex...]
            }
        }
        self.items = items
    }

    /// The items of the code at the start of `text` (which starts with `%`), and the text after it.
    private static func code(_ text: Substring) throws(Problem) -> ([Item], Substring) {
        var rest = text.dropFirst()
        func next() -> Character? {
            guard let character = rest.first else { return nil }
            rest = rest.dropFirst()
            return character
        }
        func unknown() -> Problem {
            let written = text[..<rest.startIndex]
            if rest.isEmpty, written.last.map({ "%-_0#.:369".contains($0) }) ?? true {
                return Problem(message: "the format ends in '\(written)', a code cut short (write %% for a percent sign)")
            }
            return Problem(message: "'\(written)' is not a strftime code; the codes are \(codes)")
        }
        guard var spec = next() else { throw unknown() }
        var pad: Pad?
        switch spec {
        case "-": pad = Pad.none
        case "_": pad = .space
        case "0": pad = .zero
        default: break
        }
        let alternate = spec == "#"
        if pad != nil || alternate {
            guard let following = next() else { throw unknown() }
            spec = following
        }
        if alternate && spec != "z" { throw unknown() }
        let items: [Item]
        switch spec {
        case "Y": items = [.number(.year, .zero)]
        case "C": items = [.number(.century, .zero)]
        case "y": items = [.number(.yearOfCentury, .zero)]
        case "G": items = [.number(.isoYear, .zero)]
        case "g": items = [.number(.isoYearOfCentury, .zero)]
        case "m": items = [.number(.month, .zero)]
        case "d": items = [.number(.day, .zero)]
        case "e": items = [.number(.day, .space)]
        case "j": items = [.number(.ordinal, .zero)]
        case "U": items = [.number(.weekFromSunday, .zero)]
        case "W": items = [.number(.weekFromMonday, .zero)]
        case "V": items = [.number(.isoWeek, .zero)]
        case "w": items = [.number(.weekdayFromSunday, .none)]
        case "u": items = [.number(.weekdayFromMonday, .none)]
        case "H": items = [.number(.hour, .zero)]
        case "k": items = [.number(.hour, .space)]
        case "I": items = [.number(.hour12, .zero)]
        case "l": items = [.number(.hour12, .space)]
        case "M": items = [.number(.minute, .zero)]
        case "S": items = [.number(.second, .zero)]
        case "f": items = [.number(.nanosecond, .zero)]
        case "s": items = [.number(.timestamp, .none)]
        case "b", "h": items = [.monthName(long: false)]
        case "B": items = [.monthName(long: true)]
        case "a": items = [.weekdayName(long: false)]
        case "A": items = [.weekdayName(long: true)]
        case "p": items = [.amPm(upper: true)]
        case "P": items = [.amPm(upper: false)]
        case "Z": items = [.zoneName]
        case "z": items = [.offset(colons: alternate ? -1 : 0)]
        case "+": items = [.rfc3339]
        case "t": items = [.space("\t")]
        case "n": items = [.space("\n")]
        case "%": items = [.literal("%")]
        case "D", "x": items = [.number(.month, .zero), .literal("/"), .number(.day, .zero), .literal("/"), .number(.yearOfCentury, .zero)]
        case "F": items = [.number(.year, .zero), .literal("-"), .number(.month, .zero), .literal("-"), .number(.day, .zero)]
        case "v": items = [.number(.day, .space), .literal("-"), .monthName(long: false), .literal("-"), .number(.year, .zero)]
        case "R": items = [.number(.hour, .zero), .literal(":"), .number(.minute, .zero)]
        case "T", "X": items = [.number(.hour, .zero), .literal(":"), .number(.minute, .zero), .literal(":"), .number(.second, .zero)]
        case "r":
            items = [.number(.hour12, .zero), .literal(":"), .number(.minute, .zero), .literal(":"), .number(.second, .zero),
                     .space(" "), .amPm(upper: true)]
        case "c":
            items = [.weekdayName(long: false), .space(" "), .monthName(long: false), .space(" "), .number(.day, .space), .space(" "),
                     .number(.hour, .zero), .literal(":"), .number(.minute, .zero), .literal(":"), .number(.second, .zero),
                     .space(" "), .number(.year, .zero)]
        case ":":
            var colons = 1
            while colons < 3, rest.first == ":" {
                colons += 1
                rest = rest.dropFirst()
            }
            guard next() == "z" else { throw unknown() }
            items = [.offset(colons: colons)]
        case ".":
            let digits = next()
            switch digits {
            case "f": items = [.fraction(digits: nil, dot: true)]
            case "3", "6", "9":
                guard next() == "f" else { throw unknown() }
                items = [.fraction(digits: digits?.wholeNumberValue, dot: true)]
            default: throw unknown()
            }
        case "3", "6", "9":
            guard next() == "f" else { throw unknown() }
            items = [.fraction(digits: spec.wholeNumberValue, dot: false)]
        default:
            throw unknown()
        }
        guard let pad else { return (items, rest) }
        // A padding modifier goes with one number, as in chrono.
        guard items.count == 1, case .number(let number, _) = items[0] else {
            throw Problem(message: "'\(text[..<rest.startIndex])': only a number takes a padding modifier (%-d, %_H, %0e)")
        }
        return ([.number(number, pad)], rest)
    }
}
