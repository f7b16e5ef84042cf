/// How many columns text takes at a terminal: what lines up a caret under a word, or cuts a line
/// to the screen's width.
enum TerminalColumns {
    /// Two for East Asian wide characters and emoji (`서울` is four), none for a combining mark,
    /// a zero-width joiner or a variation selector, one otherwise.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if zeroWidth.contains(where: { $0.contains(value) }) { return 0 }
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// The columns of a character: those of its first scalar (what follows it is marks and joiners).
    static func width(of character: Character) -> Int {
        character.unicodeScalars.first.map(width(of:)) ?? 1
    }

    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]
    private static let zeroWidth: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x200B...0x200D, 0xFE00...0xFE0F, 0x20D0...0x20FF,
    ]
}
