import Foundation
import TestSupport
import Testing

/// `xpath EXPR` on HTML and XML answers of the loopback server, with nothing read from disk.
@Suite struct XPathFilterTests {
    /// Latin-1 bytes declared only by the page's own <meta charset>, not well-formed as XML.
    private static let page = StaticRoute(status: 200, headers: [("Content-Type", "text/html")],
                                          body: Array(#"<!DOCTYPE html><html><head><meta charset="iso-8859-1"><title>Caf"#.utf8) + [0xE9]
                                              + Array(#"</title></head><body><p class=a>one <a href="/x.html">X</a><p>two<br>&nbsp;<a href=y.html>Y</a></body></html>"#.utf8))
    private static let feed = StaticRoute(status: 200, headers: [("Content-Type", "application/atom+xml")], body: Array("""
        <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
        <entry><id>1</id><dc:creator>Kim</dc:creator></entry><entry><id>2</id></entry></feed>
        """.utf8))
    /// An external entity naming a file: it must never be read.
    private static let hostile = StaticRoute(status: 200, headers: [("Content-Type", "application/xml")], body: Array("""
        <?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>
        """.utf8))

    @Test func xpathReadsHTMLAndXMLAnswers() async throws {
        try await withLoopbackServer(routes: ["/p.html": Self.page, "/feed": Self.feed, "/hostile": Self.hostile]) { server in
            let result = try await WSHProcess.run(["-c", """
            set output quiet
            get \(server.baseURL)/p.html
            print body | xpath "string(//title)"
            print body | xpath "count(//p)"
            print body | xpath "//a/@href"
            expect body | xpath "boolean(//p[@class='a'])" == true
            get \(server.baseURL)/feed
            print body | xpath "//*[local-name()='id']"
            print body | xpath "string(//dc:creator)"
            print bytes | xpath "count(//*[local-name()='entry'])"
            print body | xpath "//["
            """])
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stdout == """
            Café
            2
            ["/x.html","y.html"]
            ["1","2"]
            Kim
            2

            """, "\(result.stdout)")
            #expect(result.stderr.contains("<command line>:11:7: error: '| xpath': invalid XPath expression '//[': Invalid expression"),
                    "\(result.stderr)")
            // The entity that names a file is dropped, so the body does not parse: /etc/passwd is never read.
            let hostile = try await WSHProcess.run(["-c", "set output quiet\nget \(server.baseURL)/hostile\nprint body | xpath \"string(/r)\""])
            #expect(hostile.status == 3)
            #expect(hostile.stderr.contains("'| xpath': the body is not well-formed XML: line 1: Entity 'xxe' not defined"), "\(hostile.stderr)")
            #expect(!hostile.stdout.contains("root:") && !hostile.stderr.contains("root:"))
        }
    }
}
