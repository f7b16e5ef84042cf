import Checks
import Foundation
import NIOCore
import NIOHTTP1
import Targets

/// Checks a request against a route's parameters: required query items and body fields present,
/// JSON fields of the declared type. Unknown items pass, as a real server usually lets them.
struct RequestCheck {
    let route: MockRoute

    /// What is wrong with the request, in order; empty when nothing is.
    func problems(query: Substring, headers: HTTPHeaders, body: ByteBuffer?) -> [Problem.InvalidParameter] {
        var problems: [Problem.InvalidParameter] = []
        for name in route.requiredHeaders where !headers.contains(name: name) {
            problems.append(.init(name: name, location: "header", reason: "required header '\(name)' is missing"))
        }
        let queryNames = route.query.contains(where: { $0.isRequired }) ? FormItems.names(in: query) : []
        for parameter in route.query where parameter.isRequired && !queryNames.contains(parameter.name) {
            problems.append(.init(name: parameter.name, location: "query", reason: "required query parameter '\(parameter.name)' is missing"))
        }
        let text = body.map { String(buffer: $0) } ?? ""
        if route.bodyIsOptional, text.isEmpty { return problems }
        switch route.body {
        case .none:
            break
        case .json(let parameters):
            problems += jsonProblems(text, parameters)
        case .form(let parameters):
            let names = FormItems.names(in: text[...])
            for parameter in parameters where parameter.isRequired && !names.contains(parameter.name) {
                problems.append(.init(name: parameter.name, location: "body", reason: "required form field '\(parameter.name)' is missing"))
            }
        case .multipart(let parameters):
            for parameter in parameters where parameter.isRequired && !text.contains("name=\"\(parameter.name)\"") {
                problems.append(.init(name: parameter.name, location: "body", reason: "required multipart part '\(parameter.name)' is missing"))
            }
        }
        return problems
    }

    private func jsonProblems(_ text: String, _ parameters: [Parameter]) -> [Problem.InvalidParameter] {
        let required = parameters.filter { $0.isRequired }
        if text.allSatisfy(\.isWhitespace) {
            return required.map { .init(name: $0.name, location: "body", reason: "required JSON field '\($0.name)' is missing: the body is empty") }
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(text)
        } catch {
            return [.init(name: "body", location: "body", reason: "the body is not JSON: \(error)")]
        }
        guard case .object = document else {
            return [.init(name: "body", location: "body", reason: "the body should be a JSON object, not \(JSONType(document).name)")]
        }
        var problems: [Problem.InvalidParameter] = []
        for parameter in parameters {
            guard let value = document[parameter.name] else {
                if parameter.isRequired {
                    problems.append(.init(name: parameter.name, location: "body", reason: "required JSON field '\(parameter.name)' is missing"))
                }
                continue
            }
            if let expected = JSONType(declared: parameter.defaultValue), !expected.accepts(value) {
                problems.append(.init(name: parameter.name, location: "body",
                                      reason: "JSON field '\(parameter.name)' should be \(expected.name), not \(JSONType(value).name)"))
            }
        }
        return problems
    }
}

/// The type of a JSON value, as a declared default gives it (`count:=3` a number, `name=x` a string).
enum JSONType: Equatable {
    case null, boolean, integer, number, string, array, object

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        // An integer as `expect ... isInteger` reads one: written without a fraction or exponent.
        case .number: self = TypedValues.has(value, .isInteger) ? .integer : .number
        case .string: self = .string
        case .array: self = .array
        case .object: self = .object
        }
    }

    /// The type a default declares: text is a string, JSON its own type (any number for a number,
    /// any value for `null`); nil (anything goes) for a required field or a file.
    init?(declared value: ParameterValue?) {
        switch value {
        case .text?: self = .string
        case .json(let text)?:
            guard let parsed = try? JSONValue.parse(text) else { return nil }
            let type = JSONType(parsed)
            if type == .null { return nil }
            self = type == .integer ? .number : type
        case .file?, nil: return nil
        }
    }

    func accepts(_ value: JSONValue) -> Bool {
        let actual = JSONType(value)
        return actual == self || (self == .number && actual == .integer)
    }

    var name: String {
        switch self {
        case .null: "null"
        case .boolean: "a boolean"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
