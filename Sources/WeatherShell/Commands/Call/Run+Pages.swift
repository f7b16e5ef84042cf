import Checks
import Foundation
import Targets

extension Run {
    /// The default of `--max-pages`.
    static let defaultMaxPages = 100

    /// Takes `--all` and `--max-pages N` out of a call's words; the page limit when `--all` is there.
    func takePagingOptions(_ words: inout [Word]) throws -> Int? {
        var all = false
        var maxPages = Self.defaultMaxPages
        var maxPagesWord: Word?
        var index = 0
        while index < words.count {
            switch words[index].bare {
            case "--all":
                all = true
                words.remove(at: index)
            case "--max-pages":
                let option = words.remove(at: index)
                maxPagesWord = option
                guard index < words.count, let count = Int(try expand(words[index]).text), count >= 1 else {
                    throw failure("--max-pages takes a number of pages, 1 or more", at: index < words.count ? words[index].span : option.span)
                }
                maxPages = count
                words.remove(at: index)
            default:
                index += 1
            }
        }
        if !all, let maxPagesWord {
            throw failure("--max-pages goes with --all", at: maxPagesWord.span, notes: ["call NAME --all --max-pages N"])
        }
        return all ? maxPages : nil
    }

    /// `call NAME --all`: the first page as `call` sends it, then each next page (``Pagination``)
    /// at its URL with the target's method and headers, every one a call through the provider; the
    /// pages' items merged into one JSON array, printed and kept as the last response's body.
    /// A next URL fetched before is an error (the pages loop); past `maxPages` the rest is left with a note.
    func callAllPages(_ declared: DeclaredTarget, _ target: Target, _ arguments: CallArguments, maxPages: Int,
                      statement: CallStatement, argumentWords: [String: Word]) async throws {
        let pagination = try Pagination(declared.declaration)
        var items: [JSONValue] = []
        var fetched: Set<String> = []
        var pageTarget = target
        var pageArguments = arguments
        var page = 1
        var firstOrigin = ""
        while true {
            try Task.checkCancellation()
            let response: Response
            do {
                response = try await send(pageTarget, pageArguments)
            } catch let error as ProviderError {
                if page == 1 { throw diagnostic(for: error, statement: statement, argumentWords: argumentWords) }
                throw failure("page \(page) of '\(target.name)': \(error.description(masking: redaction))", at: statement.target.span)
            } catch let error as RecordingFailure {
                throw failure(error.description, at: statement.target.span)
            }
            if page == 1 { firstOrigin = Redirect.origin(of: response.hops.first?.url ?? response.url) }
            fetched.insert(response.hops.first?.url ?? response.url)
            fetched.insert(response.url)
            items += try pageItems(response, pagination, page: page, file: declared.declaration.file, statement: statement)
            guard let next = try nextPageURL(response, pagination, page: page, file: declared.declaration.file, statement: statement) else {
                return try finishPages(response, items, statement: statement)
            }
            if fetched.contains(next) {
                throw failure("the pages of '\(target.name)' loop: page \(page) leads back to \(redaction.maskedURL(next))", at: statement.target.span,
                              notes: ["\(page) pages fetched; the items so far are not printed"])
            }
            if page >= maxPages {
                io.err("note: stopped after \(maxPages) page\(maxPages == 1 ? "" : "s") of '\(target.name)'; more remain: call \(target.name) --all --max-pages N\n")
                return try finishPages(response, items, statement: statement)
            }
            // A next page at another origin is the server's choice, as a redirect's Location is:
            // the credentials go only to the first page's origin, unless `set follow trusted`.
            let elsewhere = !options.followTrusted && Redirect.origin(of: next) != firstOrigin
            pageTarget = target
            pageTarget.baseURL = next
            pageTarget.path = ""
            pageTarget.task = .plain
            pageArguments = CallArguments(headers: arguments.headers)
            if elsewhere {
                pageTarget.headers.removeAll { Redirect.isCredentialHeader($0.name) }
                pageArguments.headers.removeAll { Redirect.isCredentialHeader($0.name) }
            }
            page += 1
        }
    }

    /// The last page's response with the merged items as its JSON body, kept and written.
    private func finishPages(_ last: Response, _ items: [JSONValue], statement: CallStatement) throws {
        var merged = last
        merged.body = Data(JSONValue.array(items).compactText.utf8)
        merged.rawBody = merged.body
        merged.headers = merged.headers.filter { !["content-type", "content-length", "content-encoding"].contains($0.name.lowercased()) }
            + [Header(name: "Content-Type", value: "application/json")]
        lastResponse = merged
        try write(merged, to: statement.output)
    }

    /// One page's items: what `items` finds, else the body when it is a JSON array.
    private func pageItems(_ response: Response, _ pagination: Pagination, page: Int, file: SourceFile,
                           statement: CallStatement) throws -> [JSONValue] {
        let found: JSONValue?
        if let query = pagination.items {
            found = try inFile(file) { try lookUp(query).value }
        } else {
            found = try? response.json()
        }
        guard case .array(let elements)? = found else {
            let what = pagination.items == nil ? "its body is not a JSON array" : "its items query found \(found.map(JSONWalk.kind) ?? "nothing")"
            throw failure("page \(page) of '\(response.targetName)' has no list of items: \(what)", at: statement.target.span,
                          notes: ["say where the items are with a target field such as: items .data"])
        }
        return elements
    }

    /// The next page's absolute URL, or nil on the last page.
    private func nextPageURL(_ response: Response, _ pagination: Pagination, page: Int, file: SourceFile,
                             statement: CallStatement) throws -> String? {
        switch pagination.next {
        case .link:
            let links = LinkHeader(fields: response.headers(named: "Link"))
            return links.target(relation: "next", base: response.url)
        case .query(let query):
            let found = try inFile(file) { try lookUp(query).value }
            switch found {
            case nil, .null?: return nil
            case .string(let text)?:
                if text.isEmpty { return nil }
                guard let url = LinkHeader.resolve(text, against: response.url) else {
                    throw failure("page \(page) of '\(response.targetName)' gives a next URL that is not one: \(mask(text).shortened())",
                                  at: statement.target.span)
                }
                return url
            case let other?:
                throw failure("page \(page) of '\(response.targetName)': the next query found \(JSONWalk.kind(other)), not a URL",
                              at: statement.target.span)
            }
        }
    }

    /// Runs `body` with errors pointing into `file`: queries of a declaration are read where it was written.
    private func inFile<T>(_ file: SourceFile, _ body: () throws -> T) rethrows -> T {
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        return try body()
    }
}
