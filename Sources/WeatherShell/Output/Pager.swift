import Foundation

/// Long output at a terminal goes through a pager (`set pager`), as git and psql do.
enum Pager {
    /// `$PAGER`, else `less -FRX`: less quits at once when the text fits (-F), keeps colours (-R)
    /// and leaves the text on the screen (-X).
    static var automaticCommand: String {
        if let pager = ProcessInfo.processInfo.environment["PAGER"], !pager.trimmingCharacters(in: .whitespaces).isEmpty {
            return pager
        }
        return "less -FRX"
    }

    /// The terminal's rows and columns, when stdout is one.
    static func terminalSize(of descriptor: Int32 = STDOUT_FILENO) -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Whether `text` takes more rows than the screen has, counting wrapped lines.
    static func isLonger(_ text: [UInt8], than size: (rows: Int, columns: Int)) -> Bool {
        var rows = 0
        var column = 0
        for byte in text {
            if byte == UInt8(ascii: "\n") {
                rows += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                // One column per character; escape sequences count too, which only errs towards paging.
                column += 1
                if column > size.columns {
                    rows += 1
                    column = 1
                }
            }
            if rows >= size.rows - 1 { return true }
        }
        return false
    }
}
