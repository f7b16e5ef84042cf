import Targets
import Testing
@testable import Checks

/// The filters Hurl documents, held to the outputs Hurl's own documentation and tests give: each
/// expected value names where it comes from, in Orange-OpenSource/hurl: docs/filters.md (its table
/// and examples), integration/hurl/tests_ok/filter/filter.hurl, or a unit test of a filter in
/// packages/hurl/src/runner/filter/.
@Suite struct HurlFilterTests {
    private static func apply(_ filters: [QueryFilter], to value: JSONValue) throws -> JSONValue {
        var value = value
        for filter in filters { value = try QueryFilters.apply(filter, to: value) }
        return value
    }

    private static func failure(_ filters: [QueryFilter], on value: JSONValue) -> String? {
        do {
            _ = try apply(filters, to: value)
            return nil
        } catch let failure as QueryFilters.Failure {
            return failure.message
        } catch {
            return "unexpected \(error)"
        }
    }

    /// Hurl's mozilla.org example, with Cyrillic text in the query.
    private static let url = "https://mozilla.org/?x=шеллы"

    @Test func urlEncodeKeepsTheUnreservedCharactersAndTheSlash() throws {
        // docs/filters.md, urlEncode; filter.hurl: `jsonpath "$.url" urlEncode == ...`.
        #expect(try Self.apply([.urlEncode], to: .string(Self.url))
                == .string("https%3A//mozilla.org/%3Fx%3D%D1%88%D0%B5%D0%BB%D0%BB%D1%8B"))
        // RFC 3986, 2.3: unreserved characters are never encoded.
        #expect(try Self.apply([.urlEncode], to: .string("AZaz09-._~/ +&=%")) == .string("AZaz09-._~/%20%2B%26%3D%25"))
        // filter.hurl: `variable "url" urlEncode urlDecode == "{{url}}"`.
        #expect(try Self.apply([.urlEncode, .urlDecode], to: .string(Self.url)) == .string(Self.url))
    }
}
