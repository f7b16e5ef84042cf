/// A message in wsh's own words with the values it quotes (a file's text, a name) told apart, so
/// that a mask hides secrets in the values and leaves wsh's wording as it is: a short secret that
/// is also part of a word (`doe` in "does") would garble the message, and the `***` in a word
/// wsh always writes would tell the secret. Written as a string, each `\(...)` being a value.
struct MessageText: ExpressibleByStringInterpolation, Sendable, Equatable {
    /// A stretch of the message: wsh's own words, or a value.
    struct Part: Sendable, Equatable {
        var text: String
        var isValue: Bool
    }

    private(set) var parts: [Part]

    init(stringLiteral value: String) {
        parts = [Part(text: value, isValue: false)]
    }

    init(stringInterpolation: Interpolation) {
        parts = stringInterpolation.parts
    }

    /// A message that is all value (a library's error text, say): masked whole.
    init(value: String) {
        parts = [Part(text: value, isValue: true)]
    }

    struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) {
            // Swift gives an empty one between two values, which must stay side by side.
            guard !literal.isEmpty else { return }
            parts.append(Part(text: literal, isValue: false))
        }

        mutating func appendInterpolation(_ value: some StringProtocol) {
            parts.append(Part(text: String(value), isValue: true))
        }

        mutating func appendInterpolation(_ value: Int) {
            parts.append(Part(text: String(value), isValue: true))
        }

        /// Another message, its parts kept: its wording stays wsh's.
        mutating func appendInterpolation(_ message: MessageText) {
            parts += message.parts
        }
    }

    /// The message as written.
    var text: String {
        parts.map(\.text).joined()
    }

    /// The message with `mask` applied to its values: while it masks, each stretch of wsh's own
    /// words stands as one private-use character, which no secret holds, so that a secret is
    /// matched in a value (and across values next to each other), never in the wording.
    func masked(_ mask: (String) -> String) -> String {
        masking(mask).text
    }

    /// The message with `mask` applied to its values, its wording still told apart: masked again
    /// later (with secrets learned since), the wording stays as it is.
    func masking(_ mask: (String) -> String) -> MessageText {
        var wording: [Unicode.Scalar: String] = [:]
        var text = ""
        for part in parts {
            guard !part.isValue else {
                text += part.text
                continue
            }
            let token = Unicode.Scalar(Self.firstToken + UInt32(wording.count)) ?? "\u{FFFD}"
            wording[token] = part.text
            text.unicodeScalars.append(token)
        }
        var shown = MessageText(parts: [])
        var value = ""
        for scalar in mask(text).unicodeScalars {
            guard let words = wording[scalar] else {
                value.unicodeScalars.append(scalar)
                continue
            }
            if !value.isEmpty { shown.parts.append(Part(text: value, isValue: true)) }
            value = ""
            shown.parts.append(Part(text: words, isValue: false))
        }
        if !value.isEmpty { shown.parts.append(Part(text: value, isValue: true)) }
        return shown
    }

    private init(parts: [Part]) {
        self.parts = parts
    }

    /// Plane 15's private-use area: 65,534 stretches, more than any message has.
    private static let firstToken: UInt32 = 0xF0000
}
