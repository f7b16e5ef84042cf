import Foundation
import Targets

/// What running one `.http` file keeps between its requests.
@ShellActor
struct HTTPFileRun {
    /// The start of the variables that stand for `{{...}}` while a request is sent.
    static let prefix = "http_"
    let file: SourceFile
    /// Each request's target name, in file order.
    let names: [String]
    var requestIndex = 0
    /// The file's `@name = value` lines: each holds in the whole file, the last of a name winning.
    let fileVariables: [String: HTTPTemplate]
    /// The file variables being resolved, so that one that refers to itself is an error.
    var resolving: Set<String> = []
    /// The file variables' values for the request being sent: each is resolved once a request.
    var resolved: [String: Variable] = [:]
    /// How deep file variables may refer to one another, and how long a value may grow.
    static let deepestReference = 64
    static let longestValue = 1 << 20
    /// The last answer to each request, by its target name and its `@name`.
    var answers: [String: Response] = [:]
    private var expressionNames: [HTTPExpression: String] = [:]
    private var dotenvValues: [String: String]?

    init(file: SourceFile, names: [String], items: [HTTPFile.Item]) {
        self.file = file
        self.names = names
        var variables: [String: HTTPTemplate] = [:]
        for case .variable(let variable) in items { variables[variable.name] = variable.value }
        fileVariables = variables
    }

    /// The variable a `{{...}}` is sent as: `{{name}}` is `$name` when it can be one, any other
    /// expression a variable of its own (`http_1`, `http_2`...), one per distinct expression.
    mutating func variableName(_ expression: HTTPExpression) -> String {
        if case .variable(let name) = expression, Run.isVariableName(name) { return name }
        if let name = expressionNames[expression] { return name }
        let name = Self.prefix + String(expressionNames.count + 1)
        expressionNames[expression] = name
        return name
    }

    var dotenvPath: String { (file.directory as NSString).appendingPathComponent(".env") }

    mutating func dotenv(run: Run, at span: SourceSpan) throws -> [String: String] {
        if let dotenvValues { return dotenvValues }
        guard let data = FileManager.default.contents(atPath: dotenvPath) else {
            throw run.failure("there is no .env file beside \(file.name) for {{$dotenv}}", at: span)
        }
        let values = DotenvFile.values(String(decoding: data, as: UTF8.self))
        dotenvValues = values
        return values
    }

    func answer(of request: String, run: Run, at span: SourceSpan) throws -> Response {
        guard let response = answers[request] else {
            let known = names.contains(request)
            throw run.failure(known ? "the request '\(request)' has not been answered yet: requests run in file order"
                                    : "no request is named '\(request)'", at: span,
                              notes: known ? [] : ["name a request with # @name \(request) on a line before it"])
        }
        return response
    }

    /// Target names for the requests: `@name`, else the `###` title, as target names are written
    /// (letters, digits, `_`, `-`), else `request-N`; a name taken twice gets `-2`, `-3`...
    static func targetNames(_ requests: [HTTPFile.Request]) -> [String] {
        var taken: Set<String> = []
        return requests.enumerated().map { index, request in
            let written = (request.name ?? request.title).map { text in
                String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "-" })
                    .trimmingCharacters(in: CharacterSet(charactersIn: "-"))
            }
            let name = TargetRegistry.unusedName(written.flatMap { $0.isEmpty || !($0.first?.isLetter ?? false) ? nil : $0 } ?? "request-\(index + 1)",
                                                 among: taken)
            taken.insert(name)
            return name
        }
    }
}

extension HTTPFile.Item {
    var span: Range<Int> {
        switch self {
        case .variable(let variable): variable.span
        case .request(let request): request.span
        }
    }
}

extension SourceSpan {
    init(_ range: Range<Int>) {
        self.init(start: range.lowerBound, end: range.upperBound)
    }
}
