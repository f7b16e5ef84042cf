/// Why a text is not JSON, and where: `line 3, column 7: expected ':' after an object key`.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The byte offset from the start of the input, counting from 0.
    public var offset: Int
    /// The line, counting from 1.
    public var line: Int
    /// The column in that line, in bytes, counting from 1.
    public var column: Int
    /// The text nests lists and objects deeper than the parser goes (``JSONValue/maximumDepth``).
    public var isTooDeep = false

    /// Makes an error at a position.
    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `line L, column C: message`.
    public var description: String {
        "line \(line), column \(column): \(message)"
    }

    /// ``description`` for an error in `text`, unless `text` holds a secret (`mask` changes it):
    /// then neither the character nor the place, which would tell the secret's shape.
    public func description(in text: String, mask: (String) -> String) -> String {
        mask(text) == text ? description : "the value holds a secret, so where it fails is not shown"
    }
}
