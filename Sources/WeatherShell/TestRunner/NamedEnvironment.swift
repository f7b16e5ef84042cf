import Foundation

/// The environment variables a test file reads with `env NAME`, found in its text as it is: a
/// file that does not parse never runs the `let` that makes their values secrets, yet its error
/// quotes the line that may hold one.
enum NamedEnvironment {
    /// The values, as `env NAME` reads them, of the variables ``names(in:)`` finds.
    static func values(namedIn text: String) -> [String] {
        names(in: text).compactMap(EnvironmentOverlay.value)
    }

    /// The name after each `env` word of `text`, read line by line as words between blanks, but
    /// on a line that ends in `public` (`let base = env API_BASE public` is no secret).
    static func names(in text: String) -> [String] {
        var names: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.last != "public" else { continue }
            for (index, word) in words.enumerated().dropLast() where word == "env" || word.hasSuffix("=env") {
                let name = words[index + 1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                if Parser.isName(name), !names.contains(name) { names.append(name) }
            }
        }
        return names
    }
}
