@testable import Targets
import Testing

/// The checks of header fields before anything is sent.
@Suite struct RequestHeaderCheckTests {
    @Test func aHeaderThatCannotBeSentIsSaidByNameAndWhy() {
        #expect(RequestHeaderCheck.problem(in: [Header(name: "X-A", value: "ok\tfine é")]) == nil)
        #expect(RequestHeaderCheck.problem(in: [Header(name: "X-A", value: String(repeating: "a", count: 20) + "\r\nInjected: 1")])
                == "the value of header X-A holds a line break, which HTTP does not allow in a header")
        #expect(RequestHeaderCheck.problem(in: [Header(name: "X-A", value: "bell\u{7}")])
                == "the value of header X-A holds a control character, which HTTP does not allow in a header")
        #expect(RequestHeaderCheck.problem(in: [Header(name: "X-A", value: "del\u{7F}")])
                == "the value of header X-A holds a control character, which HTTP does not allow in a header")
        #expect(RequestHeaderCheck.problem(in: [Header(name: "X A", value: "1")])?.hasPrefix("the header name 'X A'") == true)
        #expect(RequestHeaderCheck.problem(in: [Header(name: "", value: "1")])?.hasPrefix("the header name ''") == true)
    }
}
