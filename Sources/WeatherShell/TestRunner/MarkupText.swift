import Targets
/// Text made safe for XML and HTML: the five special characters escaped, and characters XML 1.0
/// cannot hold at all (controls other than tab and line breaks, U+FFFE, U+FFFF) shown as U+FFFD,
/// since no escape can carry them.
enum MarkupText {
    static func escaped(_ text: String) -> String {
        var holdable = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let cannotBeHeld = (scalar.value < 0x20 && !"\t\n\r".unicodeScalars.contains(scalar))
                || scalar.value == 0xFFFE || scalar.value == 0xFFFF || (0x7F...0x9F).contains(scalar.value)
            holdable.append(cannotBeHeld ? "\u{FFFD}" : scalar)
        }
        return MarkupEscape.escaped(String(holdable))
    }

    /// For an attribute value: line breaks and tabs as character references, which a parser
    /// keeps (a literal one in an attribute is normalised to a space).
    static func attribute(_ text: String) -> String {
        escaped(text).replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\r", with: "&#13;")
            .replacingOccurrences(of: "\t", with: "&#9;")
    }

    /// Seconds with three decimals, as JUnit's `time` attributes take them.
    static func seconds(_ milliseconds: Double) -> String {
        let thousandths = whole(milliseconds)
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A duration or offset in whole units for display; 0 for anything negative or not finite,
    /// so a strange figure in a worker's result cannot trap the conversion.
    static func whole(_ value: Double) -> Int {
        guard value.isFinite, value > 0 else { return 0 }
        return value < 1e15 ? Int(value.rounded()) : Int(1e15)
    }
}
