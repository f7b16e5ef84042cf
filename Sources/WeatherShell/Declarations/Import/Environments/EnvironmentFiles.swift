import Foundation
import Targets

/// The environments other HTTP clients keep beside their requests, read from one directory:
/// JetBrains' `http-client.env.json` and `http-client.private.env.json` (`{"dev": {"host": ...}}`),
/// VS Code REST Client's `rest-client.environmentVariables` in `.vscode/settings.json` (with its
/// `$shared` values), Postman's `NAME.postman_environment.json` (its names written as wsh
/// variables' names, as `use postman` writes its references), and dotenv files: `.env` for every
/// environment, `NAME.env` for NAME (as httpyac reads them). A later source wins: `.env`,
/// `NAME.env`, Postman's, REST Client's `$shared`, REST Client's NAME, the `$shared` of
/// `http-client.env.json` and of `http-client.private.env.json`, their NAME. Values from the
/// private file, from dotenv files and Postman's of type `secret` are secrets.
enum EnvironmentFiles {
    /// One variable of an environment, and the file it came from.
    struct Value: Equatable {
        var name: String
        var value: String
        var isSecret: Bool
        var source: String
    }

    struct Failure: Error {
        var message: String
    }

    static let publicFile = "http-client.env.json"
    static let privateFile = "http-client.private.env.json"
    static let settingsFile = ".vscode/settings.json"
    static let postmanSuffix = ".postman_environment.json"
    private static let settingsKey = "rest-client.environmentVariables"

    /// The names of the environments defined in `directory`'s files, sorted.
    static func names(in directory: String) -> [String] {
        var names: Set<String> = []
        for file in [publicFile, privateFile] {
            // `$shared` and `$schema` (JetBrains' and the JSON schema's) are no environments.
            if case .object(let members)?? = try? json(at: path(file, in: directory)) { names.formUnion(members.map(\.key).filter { !$0.hasPrefix("$") }) }
        }
        if case .object(let members)?? = try? restClientEnvironments(in: directory) {
            names.formUnion(members.map(\.key).filter { $0 != "$shared" })
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        names.formUnion(files.filter { $0.hasSuffix(".env") && $0 != ".env" && !$0.hasPrefix(".") }.map { String($0.dropLast(4)) })
        names.formUnion(files.filter { $0.hasSuffix(postmanSuffix) && $0 != postmanSuffix }.map { String($0.dropLast(postmanSuffix.count)) })
        return names.sorted()
    }

    /// The variables of environment `name` in `directory`, or nil when no file there defines it.
    static func values(of name: String, in directory: String) throws(Failure) -> [Value]? {
        guard !name.hasPrefix("$") else { return nil }
        var values: [String: Value] = [:]
        var order: [String] = []
        var defined = false
        func add(_ name: String, _ value: String, secret: Bool, from source: String) {
            if values[name] == nil { order.append(name) }
            values[name] = Value(name: name, value: value, isSecret: secret, source: source)
        }
        for (file, named) in [(".env", false), ("\(name).env", true)] {
            let full = path(file, in: directory)
            guard let data = FileManager.default.contents(atPath: full) else { continue }
            if named { defined = true }
            for (key, value) in DotenvFile.values(String(decoding: data, as: UTF8.self)).sorted(by: { $0.key < $1.key }) {
                add(key, value, secret: true, from: file)
            }
        }
        let postman = name + postmanSuffix
        if let environment = try json(at: path(postman, in: directory)), case .object = environment {
            defined = true
            if case .array(let entries)? = environment["values"] {
                for entry in entries where entry["enabled"]?.bool != false {
                    guard let key = entry["key"]?.string else { continue }
                    let value = entry["value"].map { $0.string ?? $0.compactText } ?? ""
                    add(Run.postmanVariableName(key), value, secret: entry["type"]?.string == "secret", from: postman)
                }
            }
        }
        if case .object(let environments)? = try restClientEnvironments(in: directory) {
            var shared: [String: String] = [:]
            for key in ["$shared", name] {
                guard let environment = environments.last(where: { $0.key == key })?.value else { continue }
                if key == name { defined = true }
                for (variable, value) in try members(of: environment, key, in: settingsFile) {
                    if key == "$shared" { shared[variable] = value }
                    add(variable, key == "$shared" ? value : Self.expandingShared(value, shared), secret: false, from: settingsFile)
                }
            }
        }
        // JetBrains' `$shared` holds values of every environment; the environment's own win.
        for key in ["$shared", name] {
            for (file, secret) in [(publicFile, false), (privateFile, true)] {
                guard case .object(let environments)? = try json(at: path(file, in: directory)),
                      let environment = environments.last(where: { $0.key == key })?.value else { continue }
                if key == name { defined = true }
                for (variable, value) in try members(of: environment, key, in: file) {
                    add(variable, value, secret: secret, from: file)
                }
            }
        }
        return defined ? order.compactMap { values[$0] } : nil
    }

    /// REST Client's `{{$shared NAME}}` in an environment's value: the `$shared` environment's NAME.
    private static func expandingShared(_ value: String, _ shared: [String: String]) -> String {
        var result = value
        for (name, text) in shared {
            result = result.replacingOccurrences(of: "{{$shared \(name)}}", with: text)
        }
        return result
    }

    /// An environment's variables as text: strings as they are, other values as JSON text.
    private static func members(of environment: JSONValue, _ name: String, in file: String) throws(Failure) -> [(String, String)] {
        guard case .object(let members) = environment else {
            throw Failure(message: "\(file): the environment '\(name)' is not an object of variables")
        }
        return members.map { member in
            if case .string(let text) = member.value { return (member.key, text) }
            return (member.key, member.value.compactText)
        }
    }

    private static func restClientEnvironments(in directory: String) throws(Failure) -> JSONValue? {
        guard case .object(let settings)? = try json(at: path(settingsFile, in: directory), comments: true) else { return nil }
        return settings.last { $0.key == settingsKey }?.value
    }

    /// The JSON of a file, nil when there is none; VS Code's settings allow comments and trailing commas.
    private static func json(at path: String, comments: Bool = false) throws(Failure) -> JSONValue? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var bytes = JSONFileBytes.utf8(Array(data))
        if comments { bytes = Array(JSONWithComments.plain(String(decoding: bytes, as: UTF8.self)).utf8) }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw Failure(message: "\(Run.displayPath(path)) is not JSON: \(error.description)")
        }
    }

    private static func path(_ file: String, in directory: String) -> String {
        (directory as NSString).appendingPathComponent(file)
    }
}

/// VS Code's JSON with comments as plain JSON: `//` and `/* */` comments and commas before `}`
/// or `]` become blanks, so that positions in errors stay where they were.
enum JSONWithComments {
    static func plain(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        var inString = false
        var lastSignificant: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " "); index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
                    if bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
                    index += 1
                }
                if index < bytes.count { bytes[index] = UInt8(ascii: " "); bytes[index + 1] = UInt8(ascii: " "); index += 2 }
                continue
            }
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]"), let comma = lastSignificant, bytes[comma] == UInt8(ascii: ",") {
                bytes[comma] = UInt8(ascii: " ")
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            if ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(byte) { lastSignificant = index }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
