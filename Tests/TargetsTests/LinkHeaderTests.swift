import Targets
import Testing

/// `Link` fields as RFC 8288 writes them.
@Suite struct LinkHeaderTests {
    @Test func severalLinksAndFieldsWithQuotedCommasAndRelationLists() {
        let links = LinkHeader(fields: [
            #"<https://api.example.com/items?page=1>; rel="first", </items?page=3>; title="next, please"; rel="next last""#,
            "<https://other.example/x>; rel=prev; rel=next",
        ])
        #expect(links.links.count == 3)
        #expect(links.links[1].parameters.first { $0.name == "title" }?.value == "next, please")
        #expect(links.links[1].relations == ["next", "last"])
        #expect(links.links[2].relations == ["prev"], "only the first rel counts")
        #expect(links.target(relation: "next", base: "https://api.example.com/v1/items?page=2") == "https://api.example.com/items?page=3")
        #expect(links.target(relation: "NEXT", base: "https://api.example.com/") == "https://api.example.com/items?page=3")
    }

    @Test func relativeReferencesResolveAgainstTheRequestURL() {
        let base = "http://h:8080/a/b/list?page=1"
        #expect(LinkHeader.resolve("?page=2", against: base) == "http://h:8080/a/b/list?page=2")
        #expect(LinkHeader.resolve("next", against: base) == "http://h:8080/a/b/next")
        #expect(LinkHeader.resolve("../c", against: base) == "http://h:8080/a/c")
        #expect(LinkHeader.resolve("//cdn.example/x", against: base) == "http://cdn.example/x")
        #expect(LinkHeader.resolve("https://x.example/p", against: base) == "https://x.example/p")
    }

    @Test func malformedLinksAreSkippedAndNothingLoops() {
        let links = LinkHeader(fields: ["garbage, <ok>; rel=next, <unclosed; rel=next", "; ;;, <>", ""])
        #expect(links.target(relation: "next", base: "http://h/a/") == "http://h/a/ok")
        #expect(LinkHeader(fields: ["</x>; rel=\"prev\""]).target(relation: "next", base: "http://h/") == nil)
    }
}
