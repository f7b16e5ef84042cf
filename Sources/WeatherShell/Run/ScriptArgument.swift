import Checks
import Targets

/// A script argument or `--var`: `NAME=VALUE`, typed as Hurl types its variables (`true`,
/// `false`, `null` and numbers are typed, anything else is a string), or `NAME:=JSON`, which
/// forces the JSON's type (`n:="3"` is the string 3).
struct ScriptArgument {
    var name: String
    var value: JSONValue

    /// The argument, or a message saying what is wrong with it.
    static func parse(_ argument: String) -> Result<ScriptArgument, ArgumentError> {
        guard let equals = argument.firstIndex(of: "=") else { return .failure(ArgumentError(message: "expected NAME=VALUE")) }
        var name = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        let isJSON = name.hasSuffix(":")
        if isJSON { name.removeLast() }
        guard Parser.isName(name) || isHTTPFileName(name) else {
            return .failure(ArgumentError(message: "'\(name.shortened())' is not a variable name: a name is ASCII letters, digits and _, not starting with a digit "
                                          + "(a .http file's may also hold - and .)"))
        }
        guard isJSON else { return .success(ScriptArgument(name: name, value: TypedValues.literal(text, quoted: false))) }
        do {
            return .success(ScriptArgument(name: name, value: try JSONValue.parse(text)))
        } catch {
            return .failure(ArgumentError(message: "'\(name):=' takes JSON: \(error.description)"))
        }
    }

    /// A name a `.http` file's `{{name}}` can use and a wsh name cannot (`base-url`, `api.key`):
    /// given with `--var`, only a `.http` file reads it.
    static func isHTTPFileName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
    }

    struct ArgumentError: Error {
        var message: String
    }
}
