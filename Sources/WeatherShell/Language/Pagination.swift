/// How a target's pages follow each other, from its `next` and `items` fields (LANGUAGE.md,
/// "Targets"): `next link` (the default) follows `Link: <...>; rel="next"`; `next QUERY` reads
/// the next page's URL from each page; `items QUERY` finds each page's items, else the body is
/// the list.
struct Pagination {
    enum Next {
        case link
        case query(Query)
    }

    var next: Next = .link
    var items: Query?

    /// The pagination `declaration` declares; its fields were checked when it was parsed.
    init(_ declaration: TargetDeclaration) throws(Diagnostic) {
        for field in declaration.fields where field.name == "next" || field.name == "items" {
            let one = try Pagination(field: field.name, field.arguments, field.span, file: declaration.file)
            if field.name == "next" { next = one.next } else { items = one.items }
        }
    }

    /// One `next` or `items` field; an error when its words are not `link` or a query.
    init(field: String, _ arguments: [Word], _ fieldWord: Word, file: SourceFile) throws(Diagnostic) {
        try self.init(field: field, arguments, fieldWord.span, file: file)
    }

    private init(field: String, _ arguments: [Word], _ span: SourceSpan, file: SourceFile) throws(Diagnostic) {
        if field == "next", arguments.count == 1, arguments[0].bare == "link" { return }
        let usage = field == "next" ? "next link, or next QUERY such as next .links.next" : "items QUERY, such as items .data"
        guard !arguments.isEmpty, let query = try QueryParser(file: file).query(arguments) else {
            throw Diagnostic(.parse, "expected \(usage)", file: file, span: arguments.first?.span ?? span)
        }
        if field == "next" { next = .query(query) } else { items = query }
    }
}
