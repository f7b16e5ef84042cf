@testable import Targets
import TestSupport
import Testing

/// How a target's base, path and query become the URL sent: fragments, a base's own query, IDN hosts.
@Suite struct URLAssemblyTests {
    func url(base: String, path: String = "", query: [Parameter] = [], _ arguments: CallArguments = CallArguments()) throws -> String {
        let target = Target(name: "t", baseURL: base, path: path, task: query.isEmpty ? .plain : .query(query))
        return try Endpoint(target: target, arguments: arguments).request.url
    }

    @Test func aFragmentInThePathIsNotSentAndDoesNotSwallowTheQuery() throws {
        #expect(try url(base: "http://h/api", path: "/get#frag", query: [Parameter(name: "y", defaultValue: .text("2"))])
            == "http://h/api/get?y=2")
        #expect(try url(base: "http://h/api#top", path: "/get") == "http://h/api/get")
        #expect(try url(base: "http://h", path: "/get?x=1#frag", query: [Parameter(name: "y", defaultValue: .text("2"))])
            == "http://h/get?x=1&y=2")
        // A `#` given as a value is data, encoded in its segment or item, never a fragment.
        #expect(try url(base: "http://h", path: "/items/{id}", CallArguments(values: [("id", .text("a#b"))]))
            == "http://h/items/a%23b")
    }

    @Test func aBaseURLKeepsItsOwnQueryAndTheTargetsFollowsIt() throws {
        #expect(try url(base: "https://x/api?v=2", path: "/items", query: [Parameter(name: "y", defaultValue: .text("1"))])
            == "https://x/api/items?v=2&y=1")
        #expect(try url(base: "https://x/api/?v=2&k=a%20b", path: "items") == "https://x/api/items?v=2&k=a%20b")
        #expect(try url(base: "https://x/api?v=2", path: "/items?page=3", query: [Parameter(name: "y", defaultValue: .text("1"))],
                        CallArguments(queryItems: [("z", "9")]))
            == "https://x/api/items?v=2&page=3&y=1&z=9")
    }

    /// The last URL built is given back only for the same base, path and query.
    @Test func aURLBuiltBeforeComesBackOnlyForWhatItWasBuiltFrom() throws {
        let page = [Parameter(name: "page", defaultValue: .text("1"))]
        for _ in 0..<2 {
            #expect(try url(base: "http://h/api", path: "/items", query: page) == "http://h/api/items?page=1")
            #expect(try url(base: "http://h/api", path: "/items", query: page) == "http://h/api/items?page=1")
            #expect(try url(base: "http://h/v2", path: "/items", query: page) == "http://h/v2/items?page=1")
            #expect(try url(base: "http://h/v2", path: "/item", query: page) == "http://h/v2/item?page=1")
            #expect(try url(base: "http://h/v2", path: "/item", query: page, CallArguments(queryItems: [("page", "2")]))
                == "http://h/v2/item?page=1&page=2")
            #expect(try url(base: "http://h/v2", path: "/item") == "http://h/v2/item")
        }
        // Equal as Swift compares text, not as bytes: each is encoded from its own bytes.
        #expect(try url(base: "http://h", path: "/caf\u{E9}") == "http://h/caf%C3%A9")
        #expect(try url(base: "http://h", path: "/cafe\u{301}") == "http://h/cafe%CC%81")
        // An invalid URL is not kept: it fails each time, and the valid one before it still comes back.
        #expect(try url(base: "http://h", path: "/x") == "http://h/x")
        for _ in 0..<2 { #expect(throws: ProviderError.self) { try url(base: "http://h:99999", path: "/x") } }
        #expect(try url(base: "http://h", path: "/x") == "http://h/x")
    }

    /// RFC 3492 section 7.1: the sample strings' Unicode code points and their Punycode.
    @Test(arguments: [
        // (A) Arabic (Egyptian)
        ("\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}",
         "egbpdaj6bu4bxfgehfvwxn"),
        // (B) Chinese (simplified)
        ("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
        // (C) Chinese (traditional)
        ("\u{4ED6}\u{5011}\u{7232}\u{4EC0}\u{9EBD}\u{4E0D}\u{8AAA}\u{4E2D}\u{6587}", "ihqwctvzc91f659drss3x8bo0yb"),
        // (D) Czech
        ("Pro\u{010D}prost\u{011B}nemluv\u{00ED}\u{010D}esky", "Proprostnemluvesky-uyb24dma41a"),
        // (E) Hebrew
        ("\u{05DC}\u{05DE}\u{05D4}\u{05D4}\u{05DD}\u{05E4}\u{05E9}\u{05D5}\u{05D8}\u{05DC}\u{05D0}\u{05DE}\u{05D3}\u{05D1}\u{05E8}\u{05D9}\u{05DD}\u{05E2}\u{05D1}\u{05E8}\u{05D9}\u{05EA}",
         "4dbcagdahymbxekheh6e0a7fei0b"),
        // (F) Hindi (Devanagari)
        ("\u{092F}\u{0939}\u{0932}\u{094B}\u{0917}\u{0939}\u{093F}\u{0928}\u{094D}\u{0926}\u{0940}\u{0915}\u{094D}\u{092F}\u{094B}\u{0902}\u{0928}\u{0939}\u{0940}\u{0902}\u{092C}\u{094B}\u{0932}\u{0938}\u{0915}\u{0924}\u{0947}\u{0939}\u{0948}\u{0902}",
         "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"),
        // (G) Japanese (kanji and hiragana)
        ("\u{306A}\u{305C}\u{307F}\u{3093}\u{306A}\u{65E5}\u{672C}\u{8A9E}\u{3092}\u{8A71}\u{3057}\u{3066}\u{304F}\u{308C}\u{306A}\u{3044}\u{306E}\u{304B}",
         "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"),
        // (H) Korean (Hangul syllables)
        ("\u{C138}\u{ACC4}\u{C758}\u{BAA8}\u{B4E0}\u{C0AC}\u{B78C}\u{B4E4}\u{C774}\u{D55C}\u{AD6D}\u{C5B4}\u{B97C}\u{C774}\u{D574}\u{D55C}\u{B2E4}\u{BA74}\u{C5BC}\u{B9C8}\u{B098}\u{C88B}\u{C744}\u{AE4C}",
         "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"),
        // (I) Russian (Cyrillic)
        ("\u{043F}\u{043E}\u{0447}\u{0435}\u{043C}\u{0443}\u{0436}\u{0435}\u{043E}\u{043D}\u{0438}\u{043D}\u{0435}\u{0433}\u{043E}\u{0432}\u{043E}\u{0440}\u{044F}\u{0442}\u{043F}\u{043E}\u{0440}\u{0443}\u{0441}\u{0441}\u{043A}\u{0438}",
         "b1abfaaepdrnnbgefbadotcwatmq2g4l"),
        // (J) Spanish
        ("Porqu\u{00E9}nopuedensimplementehablarenEspa\u{00F1}ol", "PorqunopuedensimplementehablarenEspaol-fmd56a"),
        // (K) Vietnamese
        ("T\u{1EA1}isaoh\u{1ECD}kh\u{00F4}ngth\u{1EC3}ch\u{1EC9}n\u{00F3}iti\u{1EBF}ngVi\u{1EC7}t", "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"),
        // (L) 3<nen>B<gumi><kinpachi><sensei>
        ("3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}", "3B-ww4c5e180e575a65lsy2b"),
        // (M) <amuro><namie>-with-SUPER-MONKEYS
        ("\u{5B89}\u{5BA4}\u{5948}\u{7F8E}\u{6075}-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
        // (N) Hello-Another-Way-<sorezore><no><basho>
        ("Hello-Another-Way-\u{305D}\u{308C}\u{305E}\u{308C}\u{306E}\u{5834}\u{6240}", "Hello-Another-Way--fc4qua05auwb3674vfr0b"),
        // (O) <hitotsu><yane><no><shita>2
        ("\u{3072}\u{3068}\u{3064}\u{5C4B}\u{6839}\u{306E}\u{4E0B}2", "2-u9tlzr9756bt3uc0v"),
        // (P) Maji<de>Koi<suru>5<byou><mae>
        ("Maji\u{3067}Koi\u{3059}\u{308B}5\u{79D2}\u{524D}", "MajiKoi5-783gue6qz075azm5e"),
        // (Q) <pafii>de<runba>
        ("\u{30D1}\u{30D5}\u{30A3}\u{30FC}de\u{30EB}\u{30F3}\u{30D0}", "de-jg4avhby1noc0d"),
        // (R) <sono><supiido><de>
        ("\u{305D}\u{306E}\u{30B9}\u{30D4}\u{30FC}\u{30C9}\u{3067}", "d9juau41awczczp"),
        // (S) -> $1.00 <-
        ("-> $1.00 <-", "-> $1.00 <--"),
    ])
    func punycodeMatchesRFC3492SampleStrings(unicode: String, punycode: String) {
        #expect(Punycode.encode(unicode) == punycode)
    }

    @Test func aUnicodeHostIsSentInPunycodeWithItsPortUserAndPathKept() throws {
        #expect(try url(base: "https://münchen.de", path: "/a") == "https://xn--mnchen-3ya.de/a")
        #expect(try url(base: "http://user:pw@Bücher.example:8080/x?q=1") == "http://user:pw@xn--bcher-kva.example:8080/x?q=1")
        #expect(InternationalHost.asciiName("MÜNCHEN.DE") == "xn--mnchen-3ya.de")
        // Composed and decomposed ü are the same name (NFC), as IDNA maps them.
        #expect(InternationalHost.asciiName("mu\u{0308}nchen.de") == "xn--mnchen-3ya.de")
        #expect(InternationalHost.asciiName("例え.テスト") == "xn--r8jz45g.xn--zckzah")
        // A label too long for DNS is left as written, for the client to refuse, and takes no time.
        let long = String((0..<5000).compactMap { UnicodeScalar(0x4E00 + $0).map(Character.init) })
        #expect(InternationalHost.asciiName(long + ".de") == nil)
        #expect(Punycode.encode(String(repeating: "\u{10FFFF}", count: 2000)) != nil)
        // An ASCII host and a non-ASCII path are left to percent-encoding.
        #expect(try url(base: "http://h", path: "/café") == "http://h/caf%C3%A9")
    }
}
