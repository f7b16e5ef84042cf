import Crypto
import Foundation
import Synchronization
import XPath
import Targets

/// Applies a query's filters (LANGUAGE.md, "Filters") to a JSON value. A filter that cannot apply
/// throws a message naming the filter, and its input's type and value.
public enum QueryFilters {
    /// Why a filter could not apply, in the user's terms.
    public struct Failure: Error {
        public var message: String
        /// The filter applied and found nothing (a singular JSONPath query that names no node, a
        /// URL without the parameter `urlQueryParam` asks for): a miss, as a path to a missing key is, not an error.
        public var foundNothing = false
        /// A JSONPath found nothing by a typo, most likely (``JSONPath/typo(in:)``): the key, and
        /// whether a filter's condition read it. The message says where, naming the key close to it.
        public var typo: (key: String, inFilter: Bool)?
        /// How to ask what the typo's query meant to, where a path's note does not say it (an XPath's).
        public var note: String?
    }

    /// `filter` applied to `value`; a filter that cannot apply throws a ``Failure``, Ctrl-C (task cancellation) a `CancellationError`.
    public static func apply(_ filter: QueryFilter, to value: JSONValue) throws -> JSONValue {
        try apply(CollectionOfOne(filter), to: value)
    }

    /// `filter` on a value (not bytes, which ``step(_:_:)`` gives to ``byteFilter(_:_:)``); a filter
    /// that makes bytes of a string gives their text, as the end of a query does.
    static func valueFilter(_ filter: QueryFilter, _ value: JSONValue) throws -> JSONValue {
        func refuse(_ needs: String) -> Failure {
            Failure(message: "'| \(filter.name)' needs \(needs), found \(JSONWalk.kind(value)): \(value.plainText.shortened(80))")
        }
        switch (filter, value) {
        case (.length, .array(let elements)), (.count, .array(let elements)): return .number(String(elements.count))
        case (.length, .object(let members)), (.count, .object(let members)): return .number(String(members.count))
        // Unicode scalars, as jq and RFC 9535's length() count (a flag or a decomposed `é` is two, `\r\n` two).
        case (.length, .string(let text)): return .number(String(text.unicodeScalars.count))
        case (.length, _): throw refuse("a list, object or string")
        // As Hurl's: a list that became text (`"abc"` for three items) must not count as one of 3.
        case (.count, _): throw refuse("a list or object (a string's length is '| length')")
        case (.keys, .object(let members)): return .array(members.map { .string($0.key) })
        case (.values, .object(let members)): return .array(members.map(\.value))
        case (.keys, _), (.values, _): throw refuse("an object")
        case (.first, .array(let elements)):
            guard let first = elements.first else { throw Failure(message: "'| first' found an empty list", foundNothing: true) }
            return first
        case (.last, .array(let elements)):
            guard let last = elements.last else { throw Failure(message: "'| last' found an empty list", foundNothing: true) }
            return last
        case (.nth(let index), .array(let elements)):
            let position = index < 0 ? elements.count + index : index
            guard elements.indices.contains(position) else {
                throw Failure(message: "'| nth \(index)' is outside a list of \(elements.count)")
            }
            return elements[position]
        case (.first, _), (.last, _), (.nth, _): throw refuse("a list")
        case (.toInt, .number(let literal)):
            // A JSON number is cut toward zero, as Hurl's `toInt` cuts a float (`12.5` is 12).
            guard let integer = ExactNumber(literal)?.truncatedText else { throw refuse("a number, or text that reads as one") }
            return .number(integer)
        case (.toInt, .string(let text)):
            // Text is an integer as Hurl reads one: digits with a sign at most, nothing else
            // (`"12.5"`, `" 12 "` and `"1e3"` are errors, never 12 or 1000).
            let signed = text.hasPrefix("-") || text.hasPrefix("+")
            let digits = text.utf8.dropFirst(signed ? 1 : 0)
            guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let integer = ExactNumber(text)?.truncatedText else {
                let number = ExactNumber(text.trimmingCharacters(in: .whitespaces)) != nil
                throw Failure(message: "'| toInt' needs a number, or text that is an integer (digits, a sign before them at most), found a string: \"\(text.shortened(80))\""
                    + (number ? "; '| toFloat' reads a number with a fraction, an exponent or blanks around it" : ""))
            }
            return .number(integer)
        case (.toFloat, .number(let literal)), (.toFloat, .string(let literal)):
            // The IEEE-754 double nearest the number, in its shortest form: comparisons after it
            // are a double's, as Hurl's are (`0.1000000000000000055511151231257827` is `0.1`).
            let trimmed = literal.trimmingCharacters(in: .whitespaces)
            guard ExactNumber(trimmed) != nil, let double = Double(trimmed), double.isFinite else {
                throw refuse("a number, or text that reads as one, within a double's range")
            }
            return .number("\(double)")
        case (.toInt, _), (.toFloat, _): throw refuse("a number, or text that reads as one")
        case (.toString, _): return .string(value.plainText)
        case (.jsonpath(let expression), _): return try jsonPath(expression, on: value)
        case (.xpath(let expression), .string(let text)): return try xPath(expression, on: Array(text.utf8), markup: nil, encoding: "UTF-8")
        case (.join(let separator), .array(let elements)):
            return .string(elements.map(\.plainText).joined(separator: separator))
        case (.join, _): throw refuse("a list")
        case (.split(let separator), .string(let text)):
            guard !separator.isEmpty else { return .array(text.unicodeScalars.map { .string(String($0)) }) }
            return .array(ScalarText.split(text, by: separator).map(JSONValue.string))
        case (.replace(let old, let new), .string(let text)):
            guard !old.isEmpty else { return value }
            return .string(ScalarText.split(text, by: old).joined(separator: new))
        case (.upper, .string(let text)): return .string(text.uppercased())
        case (.lower, .string(let text)): return .string(text.lowercased())
        case (.trim, .string(let text)): return .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case (.urlEncode, .string(let text)):
            return .string(URLText.encoded(text))
        case (.urlDecode, .string(let text)):
            guard let decoded = text.removingPercentEncoding else { throw refuse("percent-encoded text") }
            return .string(decoded)
        case (.urlQueryParam(let name), .string(let text)):
            guard let parameter = URLText.queryParameter(name, in: text) else {
                throw Failure(message: "'| urlQueryParam \(name.shortened())' found no parameter '\(name.shortened())' in \(text.shortened(80))",
                              foundNothing: true)
            }
            return .string(parameter)
        case (.base64Encode, .string(let text)): return .string(Data(text.utf8).base64EncodedString())
        case (.base64UrlSafeEncode, .string(let text)): return .string(base64URLEncoded(Array(text.utf8)))
        case (.base64Decode, .string), (.base64UrlSafeDecode, .string), (.utf8Encode, .string):
            return try apply(CollectionOfOne(filter), to: value)
        case (.utf8Decode, _), (.charsetDecode, _):
            throw refuse("bytes (base64Decode, base64UrlSafeDecode and utf8Encode make them, and the query bytes is the body's)")
        case (.regex(let pattern), .string(let text)):
            return try firstMatch(pattern, in: text, filter: filter)
        case (.replaceRegex(let pattern, let replacement), .string(let text)):
            return .string(try matching(pattern, text, filter) { regex, stop throws(RegexMatchFailure) in
                try regex.replacingMatches(in: text, with: replacement, shouldStop: stop)
            })
        case (.htmlEscape, .string(let text)): return .string(HTMLEntities.escaped(text))
        case (.htmlUnescape, .string(let text)): return .string(HTMLEntities.unescaped(text))
        case (.sha256, .string(let text)): return .string(hex(SHA256.hash(data: Data(text.utf8))))
        case (.md5, .string(let text)): return .string(hex(Insecure.MD5.hash(data: Data(text.utf8))))
        case (.hex, .string(let text)), (.toHex, .string(let text)): return .string(hex(Data(text.utf8)))
        case (.toDate(let format), .string(let text)):
            let moment = try format.map { format in try dated(filter) { () throws(StrftimeFormat.Problem) in try DateText.parse(text, strftime: format) } }
                ?? DateText.readISO(text)
            guard let moment else { throw refuse(format.map { "a date in the format '\($0)'" } ?? "an ISO 8601 date") }
            return .string(DateText.iso(moment))
        case (.format(let format), .string(let text)), (.dateFormat(let format), .string(let text)):
            guard let moment = DateText.readISO(text) else { throw refuse("a date (toDate first)") }
            return .string(try dated(filter) { () throws(StrftimeFormat.Problem) in try DateText.format(moment, strftime: format) })
        case (.daysBeforeNow, .string(let text)), (.daysAfterNow, .string(let text)):
            guard let moment = DateText.readISO(text) else { throw refuse("a date (toDate first)") }
            let seconds = Double(moment.seconds) + Double(moment.nanoseconds) / 1e9 - Date().timeIntervalSince1970
            let days = Int((seconds / 86_400).rounded(.towardZero))
            return .number(String(filter == .daysBeforeNow ? -days : days))
        case (.split, _), (.replace, _), (.upper, _), (.lower, _), (.trim, _), (.urlEncode, _), (.urlDecode, _), (.urlQueryParam, _),
             (.base64Encode, _), (.base64Decode, _), (.base64UrlSafeEncode, _), (.base64UrlSafeDecode, _), (.utf8Encode, _),
             (.regex, _), (.replaceRegex, _), (.htmlEscape, _), (.htmlUnescape, _), (.sha256, _), (.md5, _), (.hex, _), (.toHex, _), (.toDate, _), (.format, _), (.dateFormat, _),
             (.daysBeforeNow, _), (.daysAfterNow, _), (.xpath, _):
            throw refuse("a string")
        }
    }

    /// `work` with a strftime format; a format that cannot be used is a failure naming the filter.
    private static func dated<T>(_ filter: QueryFilter, _ work: () throws(StrftimeFormat.Problem) -> T) throws(Failure) -> T {
        do {
            return try work()
        } catch {
            throw Failure(message: "'| \(filter.name)': \(error.message)")
        }
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        ByteLiteral.hex(bytes)
    }

    /// `jsonpath EXPR`: the value a singular query (`$.a[0]`) names, else the list of every value
    /// found; text (`body`) is parsed as JSON first, and text that is not JSON (an HTML error
    /// page) is a failure, not a string to find nothing in.
    private static func jsonPath(_ expression: String, on value: JSONValue) throws -> JSONValue {
        let path: JSONPath
        do {
            path = try JSONPath(expression)
        } catch {
            throw Failure(message: "'| jsonpath': '\(expression.shortened())' is not a JSONPath query: \(error.description)")
        }
        var document = value
        if case .string(let text) = value {
            do {
                document = try JSONValue.parse(text)
            } catch {
                throw Failure(message: "'| jsonpath \(expression.shortened())' needs JSON, and the text is not JSON: \(error.description)")
            }
        }
        let found: [JSONValue]
        do {
            found = try path.values(in: document, shouldStop: { Task.isCancelled })
        } catch {
            if error.isInterrupted { throw CancellationError() }
            throw Failure(message: "'| jsonpath \(expression.shortened())': \(error.description)")
        }
        guard path.isSingular else {
            // `$.items[?@.id==1].nmae` where items have `name`: the error `.items[? .id == 1].nmae` is.
            // Before it fans out (`$.itmes[*]`) nothing is there, as a path finds nothing.
            if found.isEmpty, let miss = try? path.typo(in: document) {
                throw Failure(message: miss.reason, foundNothing: miss.typo == nil, typo: miss.typo)
            }
            return .array(found)
        }
        guard let single = found.first else {
            throw Failure(message: "'| jsonpath \(expression.shortened())' found nothing", foundNothing: true)
        }
        return single
    }

    /// Whether a body is HTML or XML, when its Content-Type says so.
    public enum Markup: Sendable {
        case html, xml

        /// What a Content-Type says: `text/html` is HTML; `*/xml` and `*+xml` are XML; else nil.
        public init?(contentType: String?) {
            guard let contentType else { return nil }
            let essence = MediaType.essence(of: contentType)
            if essence == "text/html" {
                self = .html
            } else if essence.hasSuffix("/xml") || essence.hasSuffix("+xml") {
                self = .xml
            } else {
                return nil
            }
        }
    }

    /// `xpath EXPR` on a body's bytes: a node-set gives the list of its nodes' string values, a
    /// number, string or boolean itself. Without a `markup`, text that opens with `<?xml` or has no
    /// `<html` in its first kilobyte is XML, else HTML. A nil `encoding` lets the document say
    /// (a BOM, `<meta charset>`, `<?xml encoding?>`).
    public static func xPath(_ expression: String, on bytes: [UInt8], markup: Markup?, encoding: String?) throws -> JSONValue {
        let html: Bool
        if let markup {
            html = markup == .html
        } else {
            let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
            let start = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            html = !start.hasPrefix("<?xml") && head.contains("<html")
        }
        let result: XPathQuery.Result
        do {
            let stop = XPathStop()
            result = try interruptibly(onCancel: stop.stop) {
                try XPathQuery.evaluate(expression, on: bytes, html: html, encoding: encoding, stop: stop)
            }
        } catch let error as XPathError {
            throw Failure(message: "'| xpath': \(error.message)")
        }
        switch result {
        case .nodes(let values):
            if values.isEmpty, let typo = elementNameTypo(in: expression, on: bytes, html: html, encoding: encoding) { throw typo }
            return .array(values.map(JSONValue.string))
        case .number(let text):
            // NaN and ±Infinity are no JSON number, so none compares: an error that says what the XPath gave.
            guard ExactNumber(text) == nil else { return .number(text) }
            let why = text == "NaN" ? "number() of text that is no number, or 0 div 0" : "a division by zero"
            throw Failure(message: "'| xpath': '\(expression.shortened())' gave \(text) (\(why)), which no JSON number is, so nothing compares with it; "
                          + "string(...) gives the text")
        case .string(let text): return .string(text)
        case .bool(let value): return .bool(value)
        }
    }

    /// Why a path of plain name steps (`//tittle`) found nothing, when one of its names is a typo
    /// of an element's in the page: no element has it, it is four letters or more, it is no HTML
    /// element's (`//table`, `//tbody`, `//time` on a page without one are real absences), and a
    /// name there is one edit from it (a letter more, less or changed, or two swapped), not as its
    /// plural. A typo, as `.nmae` is, on which `isEmpty` and `| count == 0` would hold on any page.
    private static func elementNameTypo(in expression: String, on bytes: [UInt8], html: Bool, encoding: String?) -> Failure? {
        guard let steps = XPathQuery.plainNameSteps(expression) else { return nil }
        let suspects = steps.filter { $0.count >= 4 && !XPathQuery.htmlElementNames.contains($0) }
        guard !suspects.isEmpty, let names = try? XPathQuery.elementNames(on: bytes, html: html, encoding: encoding) else { return nil }
        for step in suspects where !names.contains(step) {
            let word = Array(step.lowercased())
            let close = names.filter { name in
                let other = name.lowercased()
                return !EditDistance.isPlural(other, of: step.lowercased()) && !EditDistance.isPlural(step.lowercased(), of: other)
                    && EditDistance.between(word, Array(other)) <= 1
            }
            guard let guess = close.first else { continue }
            let written = expression.trimmingCharacters(in: .whitespaces).shortened()
            return Failure(message: "'| xpath \(written)': no element in the page is named '\(step)' (did you mean '\(guess)'?); "
                               + "elements: \(names.prefix(12).joined(separator: ", "))",
                           typo: (step, false),
                           note: "to check that the page has no '\(step)': xpath \"count(//\(step))\" == 0")
        }
        return nil
    }

    /// `work`'s result, computed on a thread of its own while this one checks for Ctrl-C (task
    /// cancellation) every 50 ms. On Ctrl-C the prompt comes back at once: `onCancel` asks libxml2
    /// to stop (``XPathStop``), and what it does not count (merging node-sets) finishes on that
    /// thread, its result thrown away.
    private static func interruptibly<T: Sendable>(onCancel: () -> Void, _ work: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { try work() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if Task.isCancelled {
                onCancel()
                throw CancellationError()
            }
        }
        guard let result = outcome.withLock({ $0 }) else { throw CancellationError() }
        return try result.get()
    }

    /// The first capture group of the first match (the whole match when the pattern has no group),
    /// with the linear-time engine `matches` uses; null when nothing matches.
    private static func firstMatch(_ pattern: String, in text: String, filter: QueryFilter) throws -> JSONValue {
        let match = try matching(pattern, text, filter) { regex, stop throws(RegexMatchFailure) in
            try regex.firstMatch(in: text, shouldStop: stop)
        }
        guard let match else {
            throw Failure(message: "'| regex \(pattern.shortened())' found no match", foundNothing: true)
        }
        // The first group, else the whole match; a group that took no part in the match is nothing, not "".
        guard let group = match.groups.first else { return .string(match.text) }
        guard let text = group else {
            throw Failure(message: "'| regex \(pattern.shortened())' matched, but its first group took no part", foundNothing: true)
        }
        return .string(text)
    }

    /// `work` with the pattern compiled, stopped by Ctrl-C; a bad pattern or a match past the
    /// engine's budget is a failure naming the filter.
    private static func matching<T>(
        _ pattern: String, _ text: String, _ filter: QueryFilter,
        _ work: (LinearRegex, () -> Bool) throws(RegexMatchFailure) -> T
    ) throws -> T {
        let regex: LinearRegex
        do {
            regex = try LinearRegex(pattern)
        } catch {
            throw Failure(message: "'| \(filter.name)': '\(pattern.shortened())' is not a valid regular expression: \(error.description)")
        }
        do {
            return try work(regex, { Task.isCancelled })
        } catch .interrupted {
            throw CancellationError()
        } catch {
            throw Failure(message: "'| \(filter.name)' is too costly for a text of \(text.unicodeScalars.count) characters")
        }
    }
}
