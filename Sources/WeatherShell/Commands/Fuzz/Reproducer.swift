import Fuzzing
import Targets

/// The wsh statements that show a failure again, pasted after the same declarations and
/// settings: `call NAME ...` when the call sends exactly what the fuzzer sent, else the request
/// written out (`post URL items...`); a chain's id through `let`; then an `expect` that fails.
struct Reproducer {
    let targets: [String: FuzzTarget]
    /// The fuzz run's time-out for one call, which a `no-answer` reproducer sets.
    let timeout: Duration

    func lines(for failure: FuzzFailure) -> [String] {
        var lines: [String] = failure.oracle == .noAnswer ? ["set timeout \(timeout.settingText)"] : []
        let variable = failure.capture.map { _ in "id" }
        // Whether the last line is `call NAME`, whose target's `validate` fails on its own.
        var lastIsCall = false
        for (index, step) in failure.steps.enumerated() {
            if let url = step.url {
                lines.append("let location = header Location")
                lines.append("get " + (url.hasPrefix("/") || url.contains("://") ? "$location" : CommandLineRequest.word(url)))
                lastIsCall = false
                continue
            }
            guard let target = targets[step.operation] else { return [] }
            let substitute = index > 0 ? failure.capture.map { ($0.value, "$" + (variable ?? "id")) } : nil
            if let line = callLine(step.input, target, substitute: substitute) {
                lines.append(line)
                lastIsCall = true
            } else if let line = requestLine(step.input, target, substitute: substitute) {
                lines.append(line)
                lastIsCall = false
            } else {
                return []
            }
            if index == 0, let capture = failure.capture, failure.steps.count > 1, failure.steps.dropFirst().contains(where: { $0.url == nil }) {
                lines.append("let \(variable ?? "id") = \(capture.query)")
            }
        }
        if let expect = expectation(failure, afterCall: lastIsCall) { lines.append(expect) }
        return lines
    }

    private func expectation(_ failure: FuzzFailure, afterCall: Bool) -> String? {
        // A `call` fails on its own when the target's `validate` refuses the status: no expect needed.
        if afterCall, let status = failure.status, let target = failure.steps.last.flatMap({ targets[$0.operation] }),
           !target.target.validationType.accepts(status) {
            return nil
        }
        return switch failure.oracle {
        case .serverError: "expect status < 500"
        case .invalidAccepted: "expect status >= 400"
        case .afterDelete: "expect status >= 400"
        case .location: "expect status < 400"
        case .schema: targets[failure.operation]?.operation.schemasAreContract == true ? "expect schema" : nil
        case .contentType:
            failure.status.flatMap { targets[failure.operation]?.operation.answer(for: $0)?.mediaTypes.first }.map { mediaType in
                "expect header Content-Type startsWith " + CommandLineRequest.word(MediaType.essence(of: mediaType))
            }
        case .status: failure.status.map { "expect status != \($0)" }
        case .noAnswer: nil
        }
    }

    /// `call NAME args`, when the target's own defaults and required parameters leave the call
    /// sending exactly the input.
    private func callLine(_ input: FuzzCase, _ fuzzed: FuzzTarget, substitute: (String, String)?) -> String? {
        guard input.rawBody == nil, fuzzed.callSaysInputs else { return nil }
        let target = fuzzed.target
        let query = target.task.queryParameters
        let bodyFields = target.task.bodyParameters
        let operation = fuzzed.operation
        var words: [String] = []
        for parameter in query where !operation.parameters.contains(where: { $0.name == parameter.name && $0.fixed }) {
            let given = input.parameters.contains { $0.name == parameter.name && $0.location == .query }
            if !given, parameter.defaultValue != nil || parameter.isRequired { return nil }
        }
        for value in input.parameters {
            let texts = FuzzCase.texts(value.value, in: value.location).map { text in
                if let (captured, reference) = substitute, text == captured { return reference }
                return text
            }
            switch value.location {
            case .path:
                words += texts.map { text in
                    substitute?.1 == text ? "\(value.name)=\(text)" : CommandLineRequest.word("\(value.name)=\(text)")
                }
            case .query:
                guard query.contains(where: { $0.name == value.name }) else { return nil }
                words += texts.map { CommandLineRequest.word("\(value.name)=\($0)") }
            case .header:
                words += texts.map { CommandLineRequest.word("\(value.name):\($0)") }
            }
        }
        if operation.bodyKind != nil {
            guard let body = input.body else { return bodyFields.contains { $0.defaultValue != nil || $0.isRequired } ? nil : line(target.name, words) }
            guard case .object(let members) = body else { return nil }
            // A secret's field is the target's own default, which the call sends.
            for field in bodyFields where (field.defaultValue != nil || field.isRequired) && !fuzzed.fixedBodyFields.contains(where: { $0.name == field.name }) {
                guard members.contains(where: { $0.key == field.name }) else { return nil }
            }
            for member in members {
                guard bodyFields.contains(where: { $0.name == member.key }) else { return nil }
                if operation.bodyKind == .json {
                    words.append(CommandLineRequest.word("\(member.key):=\(member.value.compactText)"))
                } else {
                    words += FuzzCase.texts(member.value, in: .query).map { CommandLineRequest.word("\(member.key)=\($0)") }
                }
            }
        }
        return line(target.name, words)
    }

    private func line(_ name: String, _ words: [String]) -> String {
        (["call", CommandLineRequest.word(name)] + words).joined(separator: " ")
    }

    /// The request written out: `METHOD URL name==value Header:value key:=json`, with the path
    /// filled in; nil for a body that is not an object's fields.
    private func requestLine(_ input: FuzzCase, _ fuzzed: FuzzTarget, substitute: (String, String)?) -> String? {
        guard input.rawBody == nil else { return nil }
        var path = fuzzed.target.path
        var words: [String] = []
        for value in input.parameters {
            let texts = FuzzCase.texts(value.value, in: value.location)
            switch value.location {
            case .path:
                let text = texts.first ?? ""
                let written = substitute.flatMap { text == $0.0 ? $0.1 : nil } ?? PercentEncoding.encode(text)
                path = path.replacingOccurrences(of: "{\(value.name)}", with: written)
            case .query: words += texts.map { CommandLineRequest.word("\(value.name)==\($0)") }
            case .header: words += texts.map { CommandLineRequest.word("\(value.name):\($0)") }
            }
        }
        // The target's own headers, which a request written out does not have; a header the input gives wins.
        for header in fuzzed.target.headers where !input.parameters.contains(where: { $0.location == .header && $0.name.lowercased() == header.name.lowercased() }) {
            words.append(CommandLineRequest.word("\(header.name):\(header.value)"))
        }
        for parameter in fuzzed.operation.parameters where parameter.fixed {
            if let declared = fuzzed.target.task.queryParameters.first(where: { $0.name == parameter.name }), let value = declared.defaultValue {
                words.append(CommandLineRequest.word("\(parameter.name)==\(value.text)"))
            }
        }
        if let body = input.body {
            // Items say an object's fields; an empty object or any other JSON value they cannot say.
            guard case .object(let members) = body, !members.isEmpty else { return nil }
            if fuzzed.operation.bodyKind == .form { words.insert("--form", at: 0) }
            if fuzzed.operation.bodyKind == .multipart { words.insert("--multipart", at: 0) }
            let fixed = fuzzed.fixedBodyFields.compactMap { field in field.defaultValue.map { JSONMember(key: field.name, value: Run.jsonValue(of: $0)) } }
            for member in members + fixed {
                if fuzzed.operation.bodyKind == .json {
                    words.append(CommandLineRequest.word("\(member.key):=\(member.value.compactText)"))
                } else {
                    // Sent as the fuzzer sent them: a list as the field repeated.
                    words += FuzzCase.texts(member.value, in: .query).map { CommandLineRequest.word("\(member.key)=\($0)") }
                }
            }
        }
        let base = fuzzed.base.hasSuffix("/") && path.hasPrefix("/") ? String(fuzzed.base.dropLast()) : fuzzed.base
        let method = fuzzed.operation.method.lowercased()
        let verb = RequestStatement.methodCommands.contains(method) ? method : "request " + fuzzed.operation.method
        return ([verb, CommandLineRequest.word(base + path)] + words).joined(separator: " ")
    }
}
