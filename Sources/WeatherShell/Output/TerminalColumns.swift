extension Unicode.Scalar {
    /// A C0 control character or DEL: shown as one placeholder in a quoted line, written as
    /// `\uXXXX` in a string.
    var isASCIIControl: Bool { value < 0x20 || value == 0x7F }
}

/// How many columns text takes at a terminal: what lines up a caret under a word, or cuts a line
/// to the screen's width.
enum TerminalColumns {
    /// Two for East Asian wide characters and emoji (`서울` is four, `☔` two), none for a combining
    /// mark, a zero-width joiner, a variation selector or a skin tone, one otherwise.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if zeroWidth.contains(where: { $0.contains(value) }) { return 0 }
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// The columns of a character: those of its first scalar (what follows it is marks, joiners
    /// and the rest of an emoji sequence, drawn in the same cell).
    static func width(of character: Character) -> Int {
        character.unicodeScalars.first.map(width(of:)) ?? 1
    }

    /// The columns of scalars in a row: a scalar joined to the one before by a zero-width joiner
    /// (`👨‍👩‍👧`, one family) takes none of its own.
    static func width<Scalars: Sequence<Unicode.Scalar>>(of scalars: Scalars, each: (Unicode.Scalar) -> Int = width(of:)) -> Int {
        var total = 0
        var joined = false
        for scalar in scalars {
            if !joined { total += each(scalar) }
            joined = scalar.value == 0x200D
        }
        return total
    }

    /// The longest start of `text` that takes at most `columns` columns, cut between characters.
    static func prefix(_ text: String, columns: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let width = width(of: character)
            if used + width > columns { break }
            used += width
            result.append(character)
        }
        return result
    }

    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3, 0x25FD...0x25FE,
        // The emoji of the Miscellaneous Symbols and Dingbats blocks drawn wide: ☔ ☕ ♈-♓ ♿ ⚓ ⚡ ⚪ ⚫ ⚽ ⚾ ⛄ ⛅ ...
        0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB,
        0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3,
        0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0,
        0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
        0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD,
    ]
    private static let zeroWidth: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x200B...0x200D, 0x20D0...0x20FF, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0100...0xE01EF,
    ]
}
