/// Paged lists for the pagination tests, `pages` pages of `per` items numbered from 1, page
/// numbers from 1:
/// - `/pages/link?page=N&pages=M&per=K`: a JSON array; `Link` gives `first` and, but on the last
///   page, `next` as relative URLs, in one field with a quoted `title` holding a comma, and `last`
///   in a second field;
/// - `/pages/body?page=N&pages=M&per=K`: `{"data":[...],"links":{"next":URL|null}}` with `next`
///   absolute (from the Host header);
/// - `/pages/loop?page=N`: page 1's next is page 2, page 2's next is page 1 again.
enum PageRoutes {
    static func reply(_ kind: Substring, _ request: ReceivedRequest) -> ServerReply? {
        // Bounded, so that no query makes the arithmetic below overflow.
        let page = min(max(1, request.intQuery("page") ?? 1), 1_000_000)
        let pages = min(max(1, request.intQuery("pages") ?? 3), 1_000_000)
        let per = min(max(1, request.intQuery("per") ?? 2), 1_000)
        let items = "[" + (0..<per).map { "{\"id\":\((page - 1) * per + $0 + 1)}" }.joined(separator: ",") + "]"
        let nextQuery = "page=\(page + 1)&pages=\(pages)&per=\(per)"
        switch kind {
        case "link":
            var links = "</pages/link?page=1&pages=\(pages)&per=\(per)>; rel=\"first\""
            if page < pages { links += ", </pages/link?\(nextQuery)>; title=\"next, please\"; rel=\"next\"" }
            return .json(200, items, headers: [("Link", links), ("Link", "</pages/link?page=\(pages)&pages=\(pages)&per=\(per)>; rel=last")])
        case "body":
            let host = request.headers.first { $0.0.lowercased() == "host" }?.1 ?? "127.0.0.1"
            let next = page < pages ? "\"http://\(host)/pages/body?\(nextQuery)\"" : "null"
            return .json(200, "{\"data\":\(items),\"links\":{\"next\":\(next)}}")
        case "loop":
            return .json(200, items, headers: [("Link", "</pages/loop?page=\(page == 1 ? 2 : 1)>; rel=\"next\"")])
        default:
            return nil
        }
    }
}
