import Targets
import Testing

/// Header names are found and replaced without regard to case, as HTTP compares them.
@Suite struct HeaderListTests {
    @Test func aHeaderIsFoundByItsNameInAnyCase() {
        let request = Request(method: .get, url: "http://h/", headers: [
            Header(name: "Content-Type", value: "text/plain"), Header(name: "X-Trace-ID", value: "t-1"),
            Header(name: "X-Größe", value: "groß"),
        ])
        #expect(request.header("content-type") == "text/plain")
        #expect(request.header("CONTENT-TYPE") == "text/plain")
        #expect(request.header("x-trace-id") == "t-1")
        #expect(request.header("Content-Typf") == nil && request.header("Content-Typ") == nil)
        // Names that are not ASCII (no HTTP token is) are compared by their lowercase letters.
        #expect(request.header("x-grösse") == nil)
        #expect(request.header("x-größe") == "groß" && request.header("X-GRÖßE") == "groß")
    }

    @Test func settingAHeaderReplacesEverySameNamedOneInPlace() {
        var request = Request(method: .get, url: "http://h/", headers: [
            Header(name: "cookie", value: "a=1"), Header(name: "Accept", value: "*/*"), Header(name: "COOKIE", value: "b=2"),
        ])
        request.setHeader("Cookie", "c=3")
        #expect(request.headers.map(\.name) == ["Cookie", "Accept"])
        #expect(request.header("cookie") == "c=3")
    }
}
