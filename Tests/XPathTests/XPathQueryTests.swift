import Testing
import XPath

private func html(_ text: String, _ expression: String) throws(XPathError) -> XPathQuery.Result {
    try XPathQuery.evaluate(expression, on: Array(text.utf8), html: true)
}

private func xml(_ text: String, _ expression: String) throws(XPathError) -> XPathQuery.Result {
    try XPathQuery.evaluate(expression, on: Array(text.utf8), html: false)
}

private func failure(_ body: () throws(XPathError) -> XPathQuery.Result) -> String? {
    do { _ = try body(); return nil } catch { return error.message }
}

private let page = """
    <!DOCTYPE html>
    <html><head><title>Hi there</title><meta charset="utf-8"></head>
    <body>
      <p class="intro">one <a href="/a.html">A</a></p>
      <p>two <a href='https://example.com/b'>B</a></p>
      <p>three</p>
    </body></html>
    """

@Suite struct XPathQueryTests {
    /// Ctrl-C: a stopped evaluation fails at its next counted operation instead of running on.
    @Test func aStoppedEvaluationEndsWithStopped() throws {
        let stop = XPathStop()
        stop.stop()
        #expect(failure { () throws(XPathError) in try XPathQuery.evaluate("count(//p)", on: Array(page.utf8), html: true, stop: stop) }
                == "the XPath evaluation was stopped")
        // The same expression, not stopped.
        #expect(try XPathQuery.evaluate("count(//p)", on: Array(page.utf8), html: true, stop: XPathStop()) == .number("3"))
    }

    /// Stopped from another thread while it parses or evaluates: `//*[count(//*) > 0]` over 20,000
    /// elements is 400 million counted operations (past the limit of 100 million, seconds of work)
    /// unless the stop ends it.
    @Test func anEvaluationIsStoppedFromAnotherThread() async throws {
        let body = Array(("<r>" + String(repeating: "<e/>", count: 20_000) + "</r>").utf8)
        let stop = XPathStop()
        async let outcome = Task.detached { () -> String? in
            failure { () throws(XPathError) in try XPathQuery.evaluate("count(//*[count(//*) > 0])", on: body, html: false, stop: stop) }
        }.value
        stop.stop()
        #expect(await outcome == "the XPath evaluation was stopped")
    }

    @Test func htmlTitle() throws {
        #expect(try html(page, "string(//title)") == .string("Hi there"))
        #expect(try html(page, "//title") == .nodes(["Hi there"]))
        // The document node is the context node: a relative path starts at the top.
        #expect(try html(page, "html/head/title") == .nodes(["Hi there"]))
    }

    @Test func numbersAsXPathWritesThem() throws {
        #expect(try html(page, "count(//p)") == .number("3"))
        #expect(try html(page, "count(//p) div 2") == .number("1.5"))
        #expect(try html(page, "5 div 2") == .number("2.5"))
        #expect(try html(page, "0 div 0") == .number("NaN"))
        #expect(try html(page, "1 div 0") == .number("Infinity"))
        #expect(try html(page, "number('x')") == .number("NaN"))
        // Every digit the double holds: libxml2's 15 made 1234567890123456 read as 1234567890123460.
        #expect(try html(page, "number('1234567890123456')") == .number("1234567890123456"))
        #expect(try html(page, "0.1 + 0.2") == .number("0.30000000000000004"))
        #expect(try html(page, "1 div 3") == .number("0.3333333333333333"))
        #expect(try html(page, "-1 div 0") == .number("-Infinity"))
        #expect(try html(page, "0 - 0") == .number("0"))
    }

    @Test func booleansAndStrings() throws {
        #expect(try html(page, "boolean(//x)") == .bool(false))
        #expect(try html(page, "boolean(//p[@class='intro'])") == .bool(true))
        #expect(try html(page, "normalize-space(//p[1])") == .string("one A"))
        #expect(try html(page, "string(//nothing)") == .string(""))
    }

    @Test func attributeValues() throws {
        #expect(try html(page, "//a/@href") == .nodes(["/a.html", "https://example.com/b"]))
        #expect(try html(page, "//p/@class") == .nodes(["intro"]))
        #expect(try html(page, "//img/@src") == .nodes([]))
    }

    @Test func realWorldHtmlThatIsNotWellFormed() throws {
        let soup = "<title>Soup</title><p>unclosed <br> caf&eacute;&nbsp;bar <p>two <a href=x.html target=_blank>x</A><li>item<li>item2</ul></div></span>"
        #expect(try html(soup, "string(//title)") == .string("Soup"))
        #expect(try html(soup, "count(//p)") == .number("2"))
        #expect(try html(soup, "//a/@href") == .nodes(["x.html"]))
        #expect(try html(soup, "count(//li)") == .number("2"))
        // Named entities of HTML are known to the HTML parser: &nbsp; is U+00A0.
        #expect(try html(soup, "//p[1]") == .nodes(["unclosed  caf\u{E9}\u{A0}bar "]))
        // The HTML parser adds the html and body elements a page leaves out.
        #expect(try html(soup, "count(/html/body)") == .number("1"))
    }

    @Test func latin1HtmlDeclaredByMetaCharset() throws {
        let head = Array(#"<html><head><meta charset="iso-8859-1"><title>Caf"#.utf8)
        let body = head + [0xE9] + Array("</title></head></html>".utf8)
        #expect(try XPathQuery.evaluate("string(//title)", on: body, html: true) == .string("Caf\u{E9}"))
        // With no declaration, bytes that are not UTF-8 are read as Latin-1 (libxml2's fallback).
        let bare = Array("<title>Caf".utf8) + [0xE9] + Array("</title>".utf8)
        #expect(try XPathQuery.evaluate("string(//title)", on: bare, html: true) == .string("Caf\u{E9}"))
    }

    @Test func latin1XmlDeclaredInTheDeclaration() throws {
        let body = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><r>Caf"#.utf8) + [0xE9] + Array("</r>".utf8)
        #expect(try XPathQuery.evaluate("string(/r)", on: body, html: false) == .string("Caf\u{E9}"))
    }

    @Test func xmlWithADefaultNamespace() throws {
        let feed = """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <item><title>First</title><dc:creator>Ann</dc:creator></item>
              <item><title>Second</title><dc:creator>Bob</dc:creator></item>
            </feed>
            """
        // XPath 1.0 has no default namespace: an unprefixed name matches only elements in no namespace.
        #expect(try xml(feed, "//item") == .nodes([]))
        // So a user matches by local name (and, to be exact, namespace URI).
        #expect(try xml(feed, "count(//*[local-name()='item'])") == .number("2"))
        #expect(try xml(feed, "//*[local-name()='title']") == .nodes(["First", "Second"]))
        #expect(try xml(feed, "(//*[local-name()='title' and namespace-uri()='http://www.w3.org/2005/Atom'])[1]") == .nodes(["First"]))
        // Hurl's `_:` names the root element's default namespace.
        #expect(try xml(feed, "//_:item/_:title") == .nodes(["First", "Second"]))
        #expect(try xml(feed, "string(/_:feed/_:item[2]/dc:creator)") == .string("Bob"))
        // Prefixes declared on the root element can be used as they are.
        #expect(try xml(feed, "//dc:creator") == .nodes(["Ann", "Bob"]))
        // A prefix the document does not declare there is an error in the user's terms.
        let message = failure { () throws(XPathError) in try xml(feed, "//atom:item") }
        #expect(message == "cannot evaluate XPath expression '//atom:item': Undefined namespace prefix")
    }

    @Test func externalEntitiesAreNeverRead() throws {
        let general = """
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <r>&xxe;</r>
            """
        let parameter = """
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>
            <r>x</r>
            """
        let externalDTD = """
            <?xml version="1.0"?>
            <!DOCTYPE r SYSTEM "file:///etc/passwd">
            <r>x</r>
            """
        for body in [general, parameter, externalDTD] {
            // Either the body parses with the entity left unread, or it is refused; never /etc/passwd.
            do {
                let result = try xml(body, "string(/)")
                if case .string(let text) = result { #expect(!text.contains("root:")) } else { Issue.record("not a string") }
            } catch {
                #expect(!error.message.contains("root:"))
            }
        }
        // The HTML parser loads nothing either.
        let page = #"<!DOCTYPE html SYSTEM "file:///etc/passwd"><html><body><p>x</p></body></html>"#
        #expect(try html(page, "string(/)") == .string("x"))
    }

    @Test(.timeLimit(.minutes(1))) func billionLaughsFailsFast() throws {
        var body = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
        body += "<!ENTITY lol1 \"" + String(repeating: "&lol;", count: 10) + "\">"
        for level in 2...9 {
            body += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        body += "]><lolz>&lol9;</lolz>"
        let message = failure { () throws(XPathError) in try xml(body, "string-length(/lolz)") }
        #expect(message?.hasPrefix("the body is not well-formed XML: line 1: Detected an entity reference loop") == true)
    }

    @Test(.timeLimit(.minutes(1))) func quadraticBlowupFailsFast() throws {
        // 400 kB that would expand to 10 GB: refused while parsing instead of when XPath asks for /r's text.
        let entity = String(repeating: "x", count: 100_000)
        let body = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a ""# + entity + #"">]><r>"#
            + String(repeating: "&a;", count: 100_000) + "</r>"
        let message = failure { () throws(XPathError) in try xml(body, "string-length(/r)") }
        #expect(message?.hasPrefix("the body is not well-formed XML: line 1: Detected an entity reference loop") == true)
    }

    @Test func internalEntitiesAreExpanded() throws {
        let body = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY co "ACME &amp; Co"><!ENTITY % pe "<!ENTITY y '2024'>"> %pe;]><r>&co;, &y;</r>"#
        #expect(try xml(body, "string(/r)") == .string("ACME & Co, 2024"))
        #expect(try xml(body, "/r/text()") == .nodes(["ACME & Co, 2024"]))
    }

    @Test func invalidExpression() throws {
        let message = failure { () throws(XPathError) in try html(page, "//[") }
        #expect(message == "invalid XPath expression '//[': Invalid expression")
        #expect(failure { () throws(XPathError) in try html(page, "count(//p") }?.hasPrefix("invalid XPath expression 'count(//p'") == true)
        #expect(failure { () throws(XPathError) in try html(page, "nosuch(//p)") } == "cannot evaluate XPath expression 'nosuch(//p)': Unregistered function")
        #expect(failure { () throws(XPathError) in try html(page, "") }?.hasPrefix("invalid XPath expression ''") == true)
        #expect(failure { () throws(XPathError) in try html(page, "//p\u{0}//a") }?.hasPrefix("invalid XPath expression") == true)
    }

    @Test func xmlThatIsNotWellFormed() throws {
        let body = "<r>\n  <a>1</a>\n  <b>2</c>\n</r>"
        let message = failure { () throws(XPathError) in try xml(body, "//a") }
        #expect(message == "the body is not well-formed XML: line 3: Opening and ending tag mismatch: b line 3 and c")
        #expect(failure { () throws(XPathError) in try xml("", "/") } == "the body is not well-formed XML: line 1: Document is empty")
        #expect(failure { () throws(XPathError) in try xml("{\"json\": true}", "/") }?.hasPrefix("the body is not well-formed XML: line 1: ") == true)
    }

    @Test func anUnknownCharsetNameIsIgnored() throws {
        // libxml2 notes the unknown name and reads on (UTF-8, else Latin-1), as a browser would.
        let body = Array(#"<html><head><meta charset="x-nonsense"><title>Caf"#.utf8) + [0xE9] + Array("</title></head></html>".utf8)
        #expect(try XPathQuery.evaluate("string(//title)", on: body, html: true) == .string("Caf\u{E9}"))
        let xmlBody = Array(#"<?xml version="1.0" encoding="x-nonsense"?><r>a</r>"#.utf8)
        let message = failure { () throws(XPathError) in try XPathQuery.evaluate("/r", on: xmlBody, html: false) }
        #expect(message == "the body's character encoding is not supported: Unsupported encoding x-nonsense")
    }

    @Test func otherEncodingsDeclaredByTheBody() throws {
        // Decoded by iconv (glibc's gconv modules) or, in a dynamic build, ICU through libxml2.
        let sjis = Array(#"<html><head><meta charset="shift_jis"><title>"#.utf8) + [0x93, 0xFA, 0x96, 0x7B] + Array("</title></head></html>".utf8)
        #expect(try XPathQuery.evaluate("string(//title)", on: sjis, html: true) == .string("日本"))
        let cp1252 = Array(#"<?xml version="1.0" encoding="windows-1252"?><r>"#.utf8) + [0x80] + Array("</r>".utf8)
        #expect(try XPathQuery.evaluate("string(/r)", on: cp1252, html: false) == .string("€"))
        // UTF-16 with a byte-order mark.
        let utf16: [UInt8] = [0xFF, 0xFE] + "<r>é</r>".utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try XPathQuery.evaluate("string(/r)", on: utf16, html: false) == .string("é"))
    }

    @Test func emptyHtmlIsAnEmptyDocument() throws {
        #expect(try html("", "count(//p)") == .number("0"))
        #expect(try html("   \n", "//p") == .nodes([]))
    }

    @Test func concurrentEvaluations() async throws {
        let results = await withTaskGroup(of: XPathQuery.Result?.self) { group in
            for _ in 0..<64 {
                group.addTask { try? XPathQuery.evaluate("count(//p)", on: Array(page.utf8), html: true) }
            }
            var all: [XPathQuery.Result?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0 == .number("3") })
    }
}
