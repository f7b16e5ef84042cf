import Checks
import Foundation
import Targets

extension Run {
    /// The value a query finds in the last response, or nil with the reason it found nothing.
    /// Inside a `[? EXPR]`, `element` is the element EXPR decides on: path queries start at it.
    /// With `unmasked`, URLs and cookies named like secrets are as they are (an `expect` compares
    /// them so, and shows them masked); else as every output shows them.
    /// A list a typo made empty is an error (``refusingATypo(_:_:asksWhetherItExists:)``), but for a key step
    /// (`.users[*].user_name`) an `exists` check (`asksWhetherItExists`) asks about: a key renamed
    /// to a close one is checked gone so.
    func lookUp(_ query: Query, element: JSONValue? = nil, unmasked: Bool = false,
                asksWhetherItExists: Bool = false) throws -> (value: JSONValue?, missing: String) {
        var query = query
        query.filters = try resolvedFilters(query)
        if case .value(let word) = query.source {
            let result = try filtered(try typedValue(of: word), by: query.filters[...], in: query, asksWhetherItExists: asksWhetherItExists)
            // A secret filtered (`$token | toHex`, `| base64Encode`) is a secret in its new form too.
            // Split into a list (`$token | split "-"`), each part is one.
            if let value = result.value, try isFilteredSecret(query) {
                session.mask.add(value.plainText)
                session.mask.addDerived(contentsOf: value.leafTexts)
            }
            return result
        }
        if case .variablePath(let name, let written, let word) = query.source {
            guard let variable = variable(named: name) else { throw undefinedVariable(name, at: query.span) }
            var root = variable.typedValue
            if case .string(let text) = root, let parsed = try? JSONValue.parse(text), parsed.isObjectOrArray { root = parsed }
            // Into text or a number, `$name.json` is the text it reads as (a file name), as it always was.
            guard root.isObjectOrArray else { return try filtered(.string(try expand(word).text), by: query.filters[...], in: query) }
            // A secret's parts are secrets: each one masked wherever it shows.
            if variable.isSecret { session.mask.add(contentsOf: root.leafTexts) }
            let (value, missing) = try refusingATypo(JSONWalk.walk(root, try resolved(written, query), where: holds, reads: Self.keyRead),
                                                     query, asksWhetherItExists: asksWhetherItExists)
            guard let value else { return (nil, missing) }
            // An empty list a key no value had made (`$v[*].typo`) says so, unless a filter follows.
            var result: (value: JSONValue?, missing: String) = (value, missing)
            if !query.filters.isEmpty { result = try filtered(value, by: query.filters[...], in: query, asksWhetherItExists: asksWhetherItExists) }
            if let found = result.value, variable.isSecret { session.mask.add(found.plainText) }
            return result
        }
        guard let response = lastResponse else {
            throw failure(noResponseMessage, at: query.span)
        }
        var value: JSONValue?
        var missing = ""
        var filtersDone = 0
        switch query.source {
        case .value, .variablePath: break
        case .status: value = .number(String(response.status))
        case .time: value = .number(String(Int(response.elapsed.milliseconds)))
        case .body:
            try checkBodyKept(response, query)
            if case .xpath(let expression)? = query.filters.first {
                // The bytes as sent, so that a page's own <meta charset> counts when the header names none.
                let contentType = response.header("Content-Type")
                do {
                    value = try QueryFilters.xPath(expression, on: Array(response.body), markup: QueryFilters.Markup(contentType: contentType),
                                                   encoding: CharsetDecoding.charset(of: contentType))
                    if let value { maskDerived(value, from: { response.text }) }
                } catch let error as QueryFilters.Failure where error.typo != nil {
                    // `//tittle` on a page with `<title>`: an error, but under `exists` and `not exists`.
                    (value, missing) = try refusingATypo((nil, mask(error.message), error.typo), query,
                                                         asksWhetherItExists: asksWhetherItExists, note: error.note)
                } catch let error as QueryFilters.Failure {
                    throw failure(mask(error.message), at: query.span)
                }
                filtersDone = 1
            } else {
                value = .string(response.text)
            }
        case .header(let name):
            // A repeated field is its values joined with ", ", as RFC 9110 (5.3) combines them, so a
            // check reads them all (`header Cache-Control contains no-store` with two lines);
            // `headers NAME` is the list.
            let values = response.headers(named: name)
            value = values.isEmpty ? nil : .string(values.joined(separator: ", "))
            if value == nil { missing = "no header '\(name)' in the response" }
        case .headers(let name): value = .array(response.headers(named: name).map(JSONValue.string))
        // URLs as the logger shows them: a password in user info and the values of `appid`, `key`,
        // `token`... are `***`, so that no print, echo, variable or report shows them; an `expect`
        // compares the real ones (`unmasked`) and shows the masked.
        case .url: value = .string(shownURL(response.url, unmasked))
        case .redirects: value = .array(response.redirects.map { .string(shownURL($0, unmasked)) })
        case .hops:
            value = .array(response.hops.map { hop in
                .object([JSONMember(key: "url", value: .string(shownURL(hop.url, unmasked))),
                         JSONMember(key: "status", value: .number(String(hop.status))),
                         JSONMember(key: "location", value: hop.headers.first { $0.name.lowercased() == "location" }
                             .map { .string(shownURL($0.value, unmasked)) } ?? .null)])
            })
        case .version: value = .string(response.httpVersion)
        case .cookie(let name, let attribute):
            (value, missing) = cookieValue(name, attribute, response: response, unmasked: unmasked)
        case .bytes, .rawBytes:
            try checkBodyKept(response, query)
            let bytes = Array(query.source == .rawBytes ? try rawBody(of: response, query) : response.body)
            if let first = query.filters.first {
                do {
                    value = try QueryFilters.apply(first, toBytes: bytes)
                    if let value { maskDerived(value, from: { String(decoding: bytes, as: UTF8.self) }) }
                } catch let error as QueryFilters.Failure {
                    throw failure(mask(error.message), at: query.span)
                }
                filtersDone = 1
            } else {
                value = .string(maskedByteText(bytes))
            }
        case .path(let written):
            let steps = try resolved(written, query)
            try checkBodyKept(response, query)
            (value, missing) = try refusingATypo(JSONWalk.walk(try element ?? jsonBody(response, query), steps, where: holds, reads: Self.keyRead),
                                                 query, asksWhetherItExists: asksWhetherItExists)
        case .jsonPath(let expression):
            try checkBodyKept(response, query)
            let body = try jsonBody(response, query)
            // As `| jsonpath` is: `$.items[*].nmae` or `$..stauts` where items have `name` and `status`
            // is the error `.items[*].nmae` and `..stauts` are.
            (value, missing) = try applied([.jsonpath(expression)], to: body, in: query, asksWhetherItExists: asksWhetherItExists)
            if value == nil, (try? JSONPath(expression))?.isSingular ?? true { return (nil, "'\(mask(expression).shortened())' found nothing") }
        }
        guard let value else { return (nil, missing) }
        // An empty list a key no value had made (`.items[*].typo`) says so, unless a filter follows.
        if filtersDone == query.filters.count { return (value, missing) }
        return try filtered(value, by: query.filters.dropFirst(filtersDone), in: query, asksWhetherItExists: asksWhetherItExists)
    }

    /// A walk's value, or the error for a list it made empty with a key no value it went over has,
    /// while one has a key close to it (`[? .stauts == "x"]`, `.items[*].nmae`): a typo, most
    /// likely, on which `isEmpty`, `== []`, `| length == 0` and `not exists` would hold whatever
    /// the answer. A key step an `exists` check asks about is left to it.
    private func refusingATypo(_ walked: (value: JSONValue?, missing: String, typo: (key: String, inFilter: Bool)?), _ query: Query,
                               asksWhetherItExists: Bool, note: String? = nil) throws(Diagnostic) -> (value: JSONValue?, missing: String) {
        guard let typo = walked.typo, typo.inFilter || !asksWhetherItExists else { return (walked.value, walked.missing) }
        let written = typo.key.contains(" ") || typo.key.isEmpty ? JSONValue.quoted(typo.key) : typo.key
        throw failure(walked.missing, at: query.span, notes: [note ?? "to check that none has '\(typo.key)': [? .\(written) exists] isEmpty"])
    }

    /// A path's steps with the variables in it given their values (`.items[$i]`).
    private func resolved(_ written: [Query.PathStep], _ query: Query) throws -> [Query.PathStep] {
        var steps = written
        for variable in query.pathVariables {
            guard let value = self.variable(named: variable.name) else { throw undefinedVariable(variable.name, at: query.span) }
            if case .number(let text) = value.typedValue, let index = Int(text) {
                steps[variable.step] = .index(index)
            } else {
                steps[variable.step] = .key(value.typedValue.plainText)
            }
        }
        return steps
    }

    /// `value` through `filters`, or nil with the reason a filter found nothing. A `| jsonpath` that
    /// found nothing by a typo is an error, as a path's is (``refusingATypo(_:_:asksWhetherItExists:)``).
    private func filtered(_ value: JSONValue, by filters: ArraySlice<QueryFilter>, in query: Query,
                          asksWhetherItExists: Bool = false) throws -> (value: JSONValue?, missing: String) {
        guard !filters.isEmpty else { return (value, "") }
        let result = try applied(filters, to: value, in: query, asksWhetherItExists: asksWhetherItExists)
        if let found = result.value { maskDerived(found, from: { value.plainText }) }
        return result
    }

    /// `filters` applied to `value` (in one call, so that bytes a filter makes, `base64Decode`, go
    /// on to the next as bytes), or nil with the reason a filter found nothing; a `| jsonpath` that
    /// found nothing by a typo is the error a path's is.
    private func applied(_ filters: ArraySlice<QueryFilter>, to value: JSONValue, in query: Query,
                         asksWhetherItExists: Bool) throws -> (value: JSONValue?, missing: String) {
        do {
            return (try QueryFilters.apply(filters, to: value), "")
        } catch let error as QueryFilters.Failure where error.foundNothing {
            // As a path that reaches nothing: `exists` is false, `print` says so.
            return (nil, mask(error.message))
        } catch let error as QueryFilters.Failure where error.typo != nil {
            // An XPath's typo under `exists`/`not exists` found nothing, as a path's is an empty list:
            // `xpath "//tittle" not exists` holds, as `.items[*].nmae not exists` does.
            return try refusingATypo((error.note == nil ? .array([]) : nil, mask(error.message), error.typo), query,
                                     asksWhetherItExists: asksWhetherItExists, note: error.note)
        } catch let error as QueryFilters.Failure {
            throw failure(mask(error.message), at: query.span)
        }
    }

    /// How long a string a filter made from a secret must be to be masked from then on: a short
    /// part (`abc` of `abc-live-123 | split "-"`) would hide every `abc` of the session after it.
    static let minimumDerivedSecretLength = 6

    /// Masks from now on the strings filters made (`result`) out of a value that shows a secret
    /// (its text, from `input`, masks to something else): the upper case, base64, parts or
    /// replacement of a secret a server echoed (`.args.appid | upper`) are secrets too, as
    /// `$token | upper` is. A string the input masked shows as it is (a key of `.args | keys`) is
    /// no secret's form and stays as it is, as do numbers and booleans (`| length`). The input is
    /// masked without the strings earlier filters made, which may hold a part shown beside the
    /// secret (`appid=k3y` of `split "-"`). A made string that holds a secret's part is masked
    /// whole, not as that part.
    private func maskDerived(_ result: JSONValue, from input: () -> String) {
        let made = result.stringLeaves.filter { $0.count >= Self.minimumDerivedSecretLength }
        guard !made.isEmpty else { return }
        let text = input()
        let masked = session.sourceSecretsNow.mask(text)
        guard masked != text else { return }
        // Shown as it is, or as JSON text writes it (`a\"b`) when the input was an object or a list.
        // Whole, even when a part of it is masked already (`charlie` of an earlier `split "-"`):
        // else the rest of the secret would show beside that part's `***`.
        for string in made where !masked.contains(string)
            && !masked.contains(String(JSONValue.quoted(string).dropFirst().dropLast())) {
            session.mask.addDerived(string)
        }
    }

    /// Whether `query` filters a value written with a secret (`$token | upper`) or goes into one
    /// (`$credentials.key`): what it gives is one too.
    func isFilteredSecret(_ query: Query) throws -> Bool {
        switch query.source {
        case .value(let word): try expand(word).isSecret
        case .variablePath(let name, _, _): variable(named: name)?.isSecret == true
        default: false
        }
    }

    /// The query's filters with the arguments that hold variables expanded (`| split $sep`).
    private func resolvedFilters(_ query: Query) throws -> [QueryFilter] {
        var filters = query.filters
        for template in query.filterTemplates {
            let arguments = try template.arguments.map { try expand($0).text }
            guard let filter = QueryFilter(name: template.name, arguments: arguments) else {
                throw failure("'\(template.name)' takes a whole number, not '\(mask(arguments.joined(separator: " ")).shortened())'", at: template.span)
            }
            if let problem = filter.argumentProblem { throw failure("'\(template.name)': \(mask(problem))", at: template.span) }
            filters[template.index] = filter
        }
        return filters
    }

    /// The body as JSON, for a path or JSONPath query; an error names the query when it is not JSON.
    private func jsonBody(_ response: Response, _ query: Query) throws -> JSONValue {
        do {
            return try response.json()
        } catch {
            throw failure("the response body is not JSON, so '\(currentFile.text(query.span.start..<query.span.end))' has nothing to read",
                          at: query.span, notes: [mask(error.description)], comesFromTheAnswer: true)
        }
    }

    /// The key of the element a `[? EXPR]` reads first (`.stauts` in `[? .stauts == "ok"]`), for
    /// the walk to say when no element has it; nil when EXPR asks whether it exists (`[? .deleted exists]`).
    private static func keyRead(_ filter: ElementFilter) -> String? {
        guard filter.condition.op != .exists, case .query(let query) = filter.condition.subject,
              case .path(let steps) = query.source, case .key(let key)? = steps.first,
              !query.pathVariables.contains(where: { $0.step == 0 }) else { return nil }
        return key
    }

    /// `[? EXPR]` on one element: EXPR's path queries start at it; a comparison of values that do
    /// not compare (a string with a number) is false, as in JSONPath, not an error.
    private func holds(_ filter: ElementFilter, _ element: JSONValue) throws -> Bool {
        try holds(filter.condition, element: element)
    }

    /// Fails when the body was streamed past the memory limit, or to a file it cannot be read back from.
    private func checkBodyKept(_ response: Response, _ query: Query) throws {
        if let saved = response.streamedBodyBytes, response.body.isEmpty, saved > 0, saved <= options.maxBody ?? Int.max,
           let path = response.request.responseBodyFile {
            // Within the limit, yet not read back: the file is not a file (/dev/null), or it went away.
            throw failure("the body (\(ByteText.text(saved))) was written to '\(path.shortened())' and could not be read back from it",
                          at: query.span, notes: ["write it to a regular file, or leave out > FILE, to query it"])
        }
        if let saved = response.streamedBodyBytes, response.body.isEmpty, saved > 0 {
            let place = response.request.responseBodyFile == nil ? "printed as it arrived" : "written to its file"
            throw failure("the body (\(ByteText.text(saved))) was \(place) and, larger than set max-body, not kept for queries",
                          at: query.span, notes: ["raise the limit to query it: set max-body \(SizeText.text(max(saved, 1 << 20)))"])
        }
    }

    /// `url` as it is when `unmasked`, else as the logger shows it.
    private func shownURL(_ url: String, _ unmasked: Bool) -> String {
        unmasked ? url : redaction.maskedURL(url)
    }

    /// The body as it came (`rawbytes`). An answer printed as it arrived (also in `wsh test`, where
    /// the print goes nowhere) keeps its coded bytes up to set max-body; one written to a file, or
    /// larger, was decoded on its way and its coded bytes were not kept: said so, rather than
    /// checking the decoded bytes (or none) as if they were the raw ones.
    func rawBody(of response: Response, _ query: Query) throws -> Data {
        guard let streamed = response.streamedBodyBytes else { return response.rawBody }
        let codings = response.headers(named: "Content-Encoding").joined(separator: ",").trimmingCharacters(in: .whitespaces)
        guard codings.isEmpty || codings.lowercased() == "identity" else {
            guard response.rawBody.isEmpty, streamed > 0 else { return response.rawBody }
            let toFile = response.request.responseBodyFile != nil
            throw failure("rawbytes: the answer (\(codings)) was decoded as it was \(toFile ? "written to its file" : "printed, larger than set max-body"), and its raw bytes were not kept",
                          at: query.span, notes: [toFile ? "leave out > FILE to query rawbytes" : "raise the limit to query rawbytes: set max-body \(SizeText.text(max(streamed, 1 << 20)))"])
        }
        return response.body
    }

    /// `cookie NAME[.ATTRIBUTE]`: as the last answer set it (`Set-Cookie`), as Hurl reads it: an
    /// expired cookie or one for another path too, and an attribute the answer did not send is not
    /// there (`not exists`); else the jar's cookie for the answer's URL, with its stored attributes.
    /// A value named like a secret is `***`, as `cookies` lists it, but to an `expect`'s comparison.
    private func cookieValue(_ name: String, _ attribute: String?, response: Response, unmasked: Bool) -> (JSONValue?, String) {
        let url = response.url
        let set = response.headers(named: "Set-Cookie").compactMap(SetCookie.init)
        let sent = session.cookieJar.cookies(for: url)
        // A value named like a secret is `***`, unless `unmasked` for an `expect` to compare: then
        // the value as it is, which the call's mask may hold (a secret cookie the answer sets).
        let shownValue: (String) -> JSONValue = { [self] value in
            .string(unmasked ? value : redaction.isSensitiveKey(name) ? Redaction.placeholder : mask(value))
        }
        if let cookie = set.last(where: { $0.name == name }) {
            let missing = "the answer's cookie '\(name)' has no \(attribute ?? "value") attribute"
            let value: JSONValue? = switch attribute {
            case nil, "value"?: shownValue(cookie.value)
            case "domain"?: cookie.domain.map(JSONValue.string)
            case "path"?: cookie.path.map(JSONValue.string)
            case "expires"?: cookie.expires.map { .string($0.formatted(.iso8601)) }
            case "max-age"?: cookie.maxAge.map { .number(String($0)) }
            case "secure"?: .bool(cookie.secure)
            case "httponly"?: .bool(cookie.httpOnly)
            case "samesite"?: cookie.sameSite.map(JSONValue.string)
            default: nil
            }
            return (value, value == nil ? missing : "")
        }
        guard let cookie = sent.last(where: { $0.name == name }) else {
            let names = set.map(\.name) + sent.map(\.name).filter { sentName in !set.contains { $0.name == sentName } }
            return (nil, "no cookie '\(name)' set by the answer or for \(redaction.maskedURL(url)); cookies: \(names.isEmpty ? "(none)" : names.joined(separator: ", "))")
        }
        switch attribute {
        case nil, "value"?: return (shownValue(cookie.value), "")
        case "domain"?: return (.string(cookie.domain), "")
        case "path"?: return (.string(cookie.path), "")
        case "expires"?: return (cookie.expires.map { .string($0.formatted(.iso8601)) } ?? .null, "")
        case "max-age"?:
            return (cookie.expires.map { .number(String(max(0, Int($0.timeIntervalSinceNow.rounded())))) } ?? .null, "")
        case "secure"?: return (.bool(cookie.secure), "")
        case "httponly"?: return (.bool(cookie.httpOnly), "")
        case "samesite"?: return (cookie.sameSite.map(JSONValue.string) ?? .null, "")
        default: return (.null, "")
        }
    }

    /// A JSON value as text: strings without quotes, everything else as compact JSON.
    nonisolated static func text(_ value: JSONValue) -> String {
        value.plainText
    }

    /// The value of a query, for `let` and `print`; a miss is an error, and so is an empty list
    /// that a key no value reached has made (`let y = .items[*].typo`), as `let x = .typo` is.
    func queryValue(_ query: Query) throws -> JSONValue {
        let (value, missing) = try lookUp(query)
        guard let value, value != .array([]) || missing.isEmpty else {
            throw failure("'\(currentFile.text(query.span.start..<query.span.end))' found nothing", at: query.span, notes: [missing])
        }
        return value
    }
}

extension JSONValue {
    /// An object or a list: what a path goes into.
    var isObjectOrArray: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}

extension JSONValue {
    /// Every string inside, the value itself when it is one.
    var stringLeaves: [String] {
        switch self {
        case .string(let text): [text]
        case .number, .bool, .null: []
        case .array(let elements): elements.flatMap(\.stringLeaves)
        case .object(let members): members.flatMap { $0.value.stringLeaves }
        }
    }

    /// The text of every string and number inside: the parts of a secret that must be masked too.
    var leafTexts: [String] {
        switch self {
        case .string(let text): [text]
        case .number(let text): [text]
        case .bool, .null: []
        case .array(let elements): elements.flatMap(\.leafTexts)
        case .object(let members): members.flatMap { $0.value.leafTexts }
        }
    }
}
