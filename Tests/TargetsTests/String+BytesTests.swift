@testable import Targets
import Testing

/// The byte-level text helpers behind URL and log-line work.
@Suite struct StringBytesTests {
    @Test func splitOnceSplitsAtTheFirstSeparatorOnly() {
        #expect("a=b=c".split(once: UInt8(ascii: "=")) == ("a", "b=c"))
        #expect("noseparator".split(once: UInt8(ascii: "=")) == ("noseparator", nil))
        #expect("ends=".split(once: UInt8(ascii: "=")) == ("ends", ""))
        #expect("é?ü".split(once: UInt8(ascii: "?")) == ("é", "ü"))
    }

    @Test func asciiPrefixIgnoresTheCaseOfLettersOnly() {
        #expect("HTTPS://x".hasASCIIPrefixIgnoringCase("https://"))
        #expect("hTtP://x".hasASCIIPrefixIgnoringCase("http://"))
        #expect(!"htt".hasASCIIPrefixIgnoringCase("http://"))
        #expect(!"http\u{1A}//x".hasASCIIPrefixIgnoringCase("http://"))
        #expect(!"ｈttp://x".hasASCIIPrefixIgnoringCase("http://"))
    }

    @Test func urlsWithAnEmptyHostBeforeAQueryOrFragmentFail() {
        for url in ["http://?q=1", "http://#top", "HTTPS://"] {
            #expect(!Endpoint.hasHTTPSchemeAndHost(url), "\(url)")
        }
    }
}
