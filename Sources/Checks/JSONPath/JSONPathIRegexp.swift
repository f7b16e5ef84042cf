/// I-Regexp (RFC 9485), the pattern language of `match()` and `search()`, rewritten for
/// ``LinearRegex``: `.` becomes "anything but a line feed or carriage return", `\p{..}` and `\P{..}`
/// become classes of explicit ranges, and syntax I-Regexp lacks (`(?`, escapes such as `\d` or
/// `\b`) makes the pattern invalid. `^` and `$` stay anchors (of the whole string), as in the
/// RFC 9485 mappings to ECMAScript and PCRE and in the JSONPath compliance test suite.
enum JSONPathIRegexp {
    /// The escapes I-Regexp allows besides `\p{..}` and `\P{..}`.
    private static let singleCharacterEscapes = Set("()*+-.?[\\]^{|}nrt".unicodeScalars)

    /// The pattern compiled, anchored at both ends for `match()`; nil when it is not a valid I-Regexp.
    static func compile(_ pattern: String, wholeString: Bool) -> LinearRegex? {
        guard let translated = translate(pattern) else { return nil }
        return try? LinearRegex(wholeString ? "^(?:" + translated + ")$" : translated)
    }

    /// The pattern in ``LinearRegex``'s syntax; nil when it is not a valid I-Regexp.
    static func translate(_ pattern: String) -> String? {
        let scalars = Array(pattern.unicodeScalars)
        var output = String.UnicodeScalarView()
        var inClass = false
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\\" {
                guard index < scalars.count else { return nil }
                let letter = scalars[index]
                index += 1
                if letter == "p" || letter == "P" {
                    guard index < scalars.count, scalars[index] == "{",
                          let close = scalars[index...].firstIndex(of: "}") else { return nil }
                    var name = String.UnicodeScalarView()
                    name.append(contentsOf: scalars[(index + 1)..<close])
                    index = close + 1
                    guard var ranges = JSONPathUnicodeCategories.ranges(named: String(name)) else { return nil }
                    if letter == "P" { ranges = JSONPathUnicodeCategories.complement(of: ranges) }
                    guard !ranges.isEmpty else { return nil }
                    if !inClass { output.append("[") }
                    output.append(contentsOf: classText(ranges).unicodeScalars)
                    if !inClass { output.append("]") }
                } else {
                    guard singleCharacterEscapes.contains(letter) else { return nil }
                    output.append("\\")
                    output.append(letter)
                }
                continue
            }
            if inClass {
                if scalar == "]" { inClass = false }
                output.append(scalar)
                continue
            }
            switch scalar {
            case "[":
                inClass = true
                output.append("[")
                if index < scalars.count, scalars[index] == "^" {
                    output.append("^")
                    index += 1
                }
            case ".":
                output.append(contentsOf: "[^\\n\\r]".unicodeScalars)
            case "(":
                if index < scalars.count, scalars[index] == "?" { return nil }
                output.append(scalar)
            default:
                output.append(scalar)
            }
        }
        return inClass ? nil : String(output)
    }

    /// Ranges as the inside of a bracket class: `\u0041-\u005A`, scalars past U+FFFF written as themselves.
    private static func classText(_ ranges: [ClosedRange<UInt32>]) -> String {
        func endpoint(_ value: UInt32) -> String {
            if value <= 0xFFFF { return "\\u" + JSONPathParser.hex(value) }
            return Unicode.Scalar(value).map { String($0) } ?? ""
        }
        var text = ""
        for range in ranges {
            text += endpoint(range.lowerBound)
            if range.upperBound != range.lowerBound { text += "-" + endpoint(range.upperBound) }
        }
        return text
    }
}

/// The scalars of each Unicode general category, as sorted ranges, for `\p{..}` in I-Regexp.
enum JSONPathUnicodeCategories {
    /// The categories I-Regexp names (`Cs`, surrogates, is not among them).
    private static let names: Set<String> = [
        "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Z", "Zs", "Zl", "Zp",
        "S", "Sm", "Sc", "Sk", "So", "C", "Cc", "Cf", "Cn", "Co",
    ]

    /// Two-letter category to its ranges, built in one pass over all scalars the first time it is needed.
    private static let table: [String: [ClosedRange<UInt32>]] = {
        var table: [String: [ClosedRange<UInt32>]] = [:]
        var runCategory: Unicode.GeneralCategory?
        var runStart: UInt32 = 0
        func close(at end: UInt32) {
            if let category = runCategory { table[code(category), default: []].append(runStart...end) }
        }
        for value: UInt32 in 0...0x10FFFF {
            let category = Unicode.Scalar(value)?.properties.generalCategory
            if category != runCategory {
                if value > 0 { close(at: value - 1) }
                runCategory = category
                runStart = value
            }
        }
        close(at: 0x10FFFF)
        return table
    }()

    /// The ranges of a category I-Regexp names (`Lu`, or `L` for all letters); nil for any other name.
    static func ranges(named name: String) -> [ClosedRange<UInt32>]? {
        guard names.contains(name) else { return nil }
        if name.count == 2 { return table[name] ?? [] }
        return table.filter { $0.key.hasPrefix(name) && $0.key != "Cs" }
            .flatMap(\.value)
            .sorted { $0.lowerBound < $1.lowerBound }
    }

    /// All scalars not in `ranges` (which are sorted and disjoint), surrogates left out.
    static func complement(of ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = max(next, range.upperBound + 1)
        }
        if next <= 0x10FFFF { result.append(next...0x10FFFF) }
        return result.flatMap { range -> [ClosedRange<UInt32>] in
            guard range.overlaps(0xD800...0xDFFF) else { return [range] }
            var pieces: [ClosedRange<UInt32>] = []
            if range.lowerBound < 0xD800 { pieces.append(range.lowerBound...0xD7FF) }
            if range.upperBound > 0xDFFF { pieces.append(0xE000...range.upperBound) }
            return pieces
        }
    }

    private static func code(_ category: Unicode.GeneralCategory) -> String {
        switch category {
        case .uppercaseLetter: "Lu"
        case .lowercaseLetter: "Ll"
        case .titlecaseLetter: "Lt"
        case .modifierLetter: "Lm"
        case .otherLetter: "Lo"
        case .nonspacingMark: "Mn"
        case .spacingMark: "Mc"
        case .enclosingMark: "Me"
        case .decimalNumber: "Nd"
        case .letterNumber: "Nl"
        case .otherNumber: "No"
        case .connectorPunctuation: "Pc"
        case .dashPunctuation: "Pd"
        case .openPunctuation: "Ps"
        case .closePunctuation: "Pe"
        case .initialPunctuation: "Pi"
        case .finalPunctuation: "Pf"
        case .otherPunctuation: "Po"
        case .mathSymbol: "Sm"
        case .currencySymbol: "Sc"
        case .modifierSymbol: "Sk"
        case .otherSymbol: "So"
        case .spaceSeparator: "Zs"
        case .lineSeparator: "Zl"
        case .paragraphSeparator: "Zp"
        case .control: "Cc"
        case .format: "Cf"
        case .surrogate: "Cs"
        case .privateUse: "Co"
        case .unassigned: "Cn"
        @unknown default: "Cn"
        }
    }
}
