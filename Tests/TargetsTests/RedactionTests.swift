import Foundation
import Targets
import TestSupport
import Testing

/// Secrets never show in masked URLs, headers, bodies, curl commands or error messages.
@Suite struct RedactionTests {
    @Test func secretValuesAreMaskedAlsoWhenPercentEncoded() {
        let redaction = Redaction(secrets: ["s3cr3t", "p@ss word", ""])
        #expect(redaction.mask("key s3cr3t and s3cr3ts") == "key *** and ***s")
        #expect(redaction.mask("q=p%40ss%20word&x=p@ss word") == "q=***&x=***")
        #expect(redaction.mask("nothing here") == "nothing here")
    }

    @Test func valuesSentUnderSensitiveNamesAreMaskedWhereverTheyAppear() {
        let request = Request(
            method: .post, url: "https://h/p?appid=owm-key-1&lat=37&token=ab#frag",
            headers: [Header(name: "Authorization", value: "Bearer tok-999"), Header(name: "Accept", value: "json")],
            body: Data(#"{"user":{"password":"hunter22","pin":1234},"api_key":98765}"#.utf8))
        let redaction = Redaction(secrets: ["envvalue"]).including(secretsOf: request)
        let echoed = "tok-999 owm-key-1 hunter22 98765 envvalue 37 json ab 1234"
        #expect(redaction.mask(echoed) == "*** *** *** *** *** 37 json ab 1234")
        let form = Request(method: .post, url: "https://h/", headers: [Header(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                           body: Data("client_secret=s%20e%20c&name=ann".utf8))
        #expect(Redaction().including(secretsOf: form).mask("s e c ann") == "*** ann")
        #expect(Redaction().including(secretsOf: Request(method: .get, url: "https://h/")).secretValues.isEmpty)
        // A base URL with a fragment gets its query after it: that query is sent, and masked.
        let afterFragment = Request(method: .get, url: "https://h/api#frag?appid=owm-key-2")
        #expect(Redaction().including(secretsOf: afterFragment).mask("owm-key-2") == "***")
    }

    /// A JSON body sent with a form's type (curl's default for `-d`, a pasted "Copy as cURL") is
    /// masked as JSON, and its credentials are what the request sends (its password was stored
    /// in the call history as typed); a form stays a form.
    @Test func aJSONBodySentAsAFormIsMaskedAsJSON() {
        let type = "application/x-www-form-urlencoded"
        let body = Data(#" {"name":"ana","password":"pw123456"}"#.utf8)
        #expect(Redaction().maskedBody(body, contentType: type) == #"{"name":"ana","password":"***"}"#)
        let request = Request(method: .post, url: "https://h/", headers: [Header(name: "Content-Type", value: type)], body: body)
        let echoed = #"{"form":{"{\"name\":\"ana\",\"password\":\"pw123456\"}":""}}"#
        #expect(Redaction().including(secretsOf: request).mask(echoed) == #"{"form":{"{\"name\":\"ana\",\"password\":\"***\"}":""}}"#)
        #expect(String(decoding: Redaction().maskedForRecording(body, contentType: type), as: UTF8.self) == #"{"name":"ana","password":"***"}"#)
        #expect(Redaction().maskedBody(Data("password=pw123456&a={b}".utf8), contentType: type) == "password=***&a={b}")
        #expect(Redaction().maskedBody(Data("{not json&token=t0k".utf8), contentType: type) == "{not json&token=***")
    }

    @Test func theValuesOfCookiesNamedLikeSecretsAreSecrets() {
        let line = "theme=dark; session_token=tok-abcdef123;\tcsrf_token = x-y-z-123 ;plain=value-9876;;"
        let request = Request(method: .get, url: "https://h/", headers: [Header(name: "Cookie", value: line)])
        let redaction = Redaction().including(secretsOf: request)
        #expect(redaction.mask("dark tok-abcdef123 x-y-z-123 value-9876") == "dark *** *** value-9876")
        // Session cookies are secrets too: a server that echoes the header (httpbin's /headers) shows them `***`.
        let sid = Request(method: .get, url: "https://h/", headers: [Header(name: "Cookie", value: "sid=COOK-LOG-3; PHPSESSID=php-1234; theme=dark")])
        #expect(Redaction().including(secretsOf: sid).mask(#"{"headers":{"Cookie":"sid=COOK-LOG-3; PHPSESSID=php-1234; theme=dark"}}"#)
                == #"{"headers":{"Cookie":"sid=***; PHPSESSID=***; theme=dark"}}"#)
        // The header's name in any case; names in any case, not ASCII, or with `=` in the value.
        let mixed = Request(method: .get, url: "https://h/", headers: [Header(
            name: "COOKIE", value: "XSRF-TOKEN=xs-rf-value-1; Sessión=non-ascii-2; über_key=a=b=c-3; lang=de-DE-4")])
        #expect(Redaction().including(secretsOf: mixed).mask("xs-rf-value-1 non-ascii-2 a=b=c-3 de-DE-4") == "*** *** *** de-DE-4")
    }

    @Test func sensitiveHeadersAreMasked() {
        let redaction = Redaction(secrets: ["envvalue"])
        #expect(redaction.maskedHeader(Header(name: "Authorization", value: "Bearer abc")).value == "***")
        #expect(redaction.maskedHeader(Header(name: "cookie", value: "session=1")).value == "***")
        #expect(redaction.maskedHeader(Header(name: "Proxy-Authorization", value: "Basic x")).value == "***")
        #expect(redaction.maskedHeader(Header(name: "X-Api-Key", value: "k")).value == "***")
        #expect(redaction.maskedHeader(Header(name: "X-Custom", value: "id envvalue")) == Header(name: "X-Custom", value: "id ***"))
        #expect(redaction.maskedHeader(Header(name: "Accept", value: "application/json")).value == "application/json")
    }

    /// A `Set-Cookie` line shows its cookies' names and attributes, never a value: also a nameless
    /// cookie, a value with a comma or a quoted `;`, a first cookie named like an attribute, and a
    /// second one folded in after a comma; an `Expires` date's comma and `; Secure` stay.
    @Test(arguments: [
        ("sid=abc; Path=/; HttpOnly", "sid=***; Path=/; HttpOnly"),
        ("lang=en; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Secure", "lang=***; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Secure"),
        ("theme=dark, jwt=abc; Path=/", "theme=***, jwt=***; Path=/"),
        ("TOKENVALUE", "***"),
        ("sid=abc,TAILVALUE; Path=/", "sid=***,***; Path=/"),
        ("sid=\"abc;TAILVALUE\"; Path=/", "sid=***;***; Path=/"),
        ("Path=VALUE; Path=/", "Path=***; Path=/"),
    ])
    func setCookieShowsNamesAndAttributesAndNoValue(line: String, shown: String) {
        #expect(Redaction().maskedHeader(Header(name: "Set-Cookie", value: line)).value == shown)
    }

    @Test func sensitiveKeysAreRecognisedBySubstringInAnyCase() {
        let redaction = Redaction()
        for key in ["appid", "APPID", "api_key", "apiKey", "access_token", "client_secret", "Password", "key"] {
            #expect(redaction.isSensitiveKey(key), "\(key)")
        }
        for key in ["lat", "lon", "q", "units", "city"] {
            #expect(!redaction.isSensitiveKey(key), "\(key)")
        }
    }

    @Test func everySensitiveHeaderNameIsMaskedInAnyCaseAndOnlyItself() {
        let redaction = Redaction()
        for name in Redaction.sensitiveHeaderNames {
            for form in [name, name.uppercased(), name.capitalized] {
                #expect(redaction.isSensitiveName(form), "\(form)")
            }
            #expect(!redaction.isSensitiveName(name + "s") && !redaction.isSensitiveName(String(name.dropFirst())), "\(name)")
        }
        #expect(redaction.isSensitiveName("X-Auth-Token") && redaction.isSensitiveName("x-api-KEY"))
        #expect(!redaction.isSensitiveName("Content-Type") && !redaction.isSensitiveName("Accept-Ranges"))
        // Not ASCII: the long way, where the Kelvin sign (U+212A) lowercases to k.
        #expect(redaction.isSensitiveName("X-\u{212A}ey") && !redaction.isSensitiveName("X-Stra\u{DF}e"))
    }

    /// The key parts are found at every offset, odd and even, at both ends and in any case, as
    /// reading every offset finds them; and not where only part of one is.
    @Test func keyPartsAreFoundAtEveryOffsetAsAPlainScanFindsThem() {
        let redaction = Redaction()
        for part in Redaction.sensitiveKeyParts {
            // Past the first eight bytes too, which are read at once.
            for padding in 0..<12 {
                for word in [part, part.uppercased(), String(part.enumerated().map { $0.offset.isMultiple(of: 2) ? Character($0.element.uppercased()) : $0.element })] {
                    let before = String(repeating: "x", count: padding)
                    for text in [before + word, word + before, before + word + before] {
                        #expect(redaction.isSensitiveKey(text), "\(text)")
                    }
                }
            }
            #expect(!redaction.isSensitiveKey(String(part.dropLast())), "\(part)")
        }
        #expect(!redaction.isSensitiveKey("ke_y") && !redaction.isSensitiveKey("tokn") && !redaction.isSensitiveKey("apiid"))
        // A pair of a part's first letters early on, and the part itself eight bytes after, or not at all.
        #expect(redaction.isSensitiveKey("toxxxxxxxxxxxxxxxxkey") && !redaction.isSensitiveKey("toxxxxxxxxxxxxxxxxkex"))
        // Random ASCII text over the letters of the parts, against a plain reading of every offset.
        var generator = SeededGenerator(seed: 6265)
        let letters = Array("keytonscrpawdiK_EYTOPA-x")
        for _ in 0..<3000 {
            let text = String((0..<Int.random(in: 0...40, using: &generator)).map { _ in letters.randomElement(using: &generator) ?? "x" })
            let lowered = text.lowercased()
            let plain = Redaction.sensitiveKeyParts.contains { lowered.contains($0) }
            #expect(redaction.isSensitiveKey(text) == plain, "\(text)")
        }
    }

    @Test func urlQueryValuesOfSensitiveKeysAndUserInfoAreMasked() {
        let redaction = Redaction(secrets: ["Suwon"])
        #expect(redaction.maskedURL("https://api.openweathermap.org/data/2.5/weather?lat=51.51&appid=abc123&lon=-0.13")
            == "https://api.openweathermap.org/data/2.5/weather?lat=51.51&appid=***&lon=-0.13")
        #expect(redaction.maskedURL("http://u:pw@h.example/x?access%5Ftoken=t&q=Suwon#frag")
            == "http://u:***@h.example/x?access%5Ftoken=***&q=***#frag")
        #expect(redaction.maskedURL("http://h/plain") == "http://h/plain")
        // A password with an unescaped `/`, which ends the host for every client: masked all the same.
        #expect(redaction.maskedURL("http://al:pa/ss@h.example/x") == "http://al:***@h.example/x")
        #expect(redaction.maskedURL("http://h.example:8080/users/@me") == "http://h.example:8080/users/@me")
        #expect(redaction.maskedURL("http://al:pa?ss@h.example/x") == "http://al:***@h.example/x")
        #expect(redaction.maskedURL("http://al:pa#ss@h.example/x") == "http://al:***@h.example/x")
        #expect(redaction.maskedURL("http://[::1]:8080/users/@alice") == "http://[::1]:8080/users/@alice")
        // Host `al`, port 1234, path `/abcd@h/`: a URL that can be sent as it reads, so left as it reads.
        #expect(redaction.maskedURL("http://al:1234/abcd@h/") == "http://al:1234/abcd@h/")
    }

    /// The password of a URL a query value holds (a URL to go to next) is a secret from the first
    /// request on, as written and percent-encoded; the rest of the value stays readable (it was
    /// masked only once a redirect's Location repeated it).
    @Test func thePasswordOfAURLInAQueryValueIsMasked() {
        let redaction = Redaction()
        #expect(redaction.maskedURL("http://h/redir?to=http://eve:EvilPw123@h2:81/x%3Fq%3D1&n=2")
            == "http://h/redir?to=http://eve:***@h2:81/x%3Fq%3D1&n=2")
        #expect(redaction.maskedURL("http://h/cb?next=http%3A%2F%2Feve%3AEvilPw123%40h2%2F") == "http://h/cb?next=http%3A%2F%2Feve%3A***%40h2%2F")
        #expect(redaction.maskedURL("http://h/cb?next=http://h2/x&at=a:b@c") == "http://h/cb?next=http://h2/x&at=a:b@c")
        // `p+1` is `p%2B1` in its URL, `p%252B1` in the query value that holds that URL.
        #expect(redaction.maskedURL("http://h/r?to=http%3A%2F%2Fbob%3AHunter%252B2pw%40host%2Fx") == "http://h/r?to=http%3A%2F%2Fbob%3A***%40host%2Fx")
        let request = Request(method: .get, url: "http://h/redir?to=http://eve:EvilPw123@h2/x")
        #expect(redaction.sentSecrets(of: request).map(\.value) == ["EvilPw123"])
        #expect(redaction.including(secretsOf: request).mask(#"{"url": "http://eve:EvilPw123@h2/x"}"#) == #"{"url": "http://eve:***@h2/x"}"#)
    }

    @Test func curlCommandMasksURLHeadersAndBody() throws {
        let request = Request(
            method: .post, url: "https://api.example.com/login?token=abc&page=2",
            headers: [
                Header(name: "Authorization", value: "Bearer abc"),
                Header(name: "Content-Type", value: "application/json"),
                Header(name: "X-Note", value: "it's envsecret"),
            ],
            body: Data(#"{"user":"me","password":"hunter2","nested":{"api_key":"k1"}}"#.utf8),
            timeout: .milliseconds(2500))
        let curl = try RequestCommandPrinter(tool: .curl, purpose: .log, redaction: Redaction(secrets: ["envsecret"])).command(for: request).text
        #expect(curl == """
            curl \\
              'https://api.example.com/login?token=***&page=2' \\
              -H 'Authorization: ***' \\
              -H 'Content-Type: application/json' \\
              -H 'X-Note: it'\\''s ***' \\
              --data-raw '{"user":"me","password":"***","nested":{"api_key":"***"}}' \\
              --max-time 2.5
            """)
        for secret in ["abc", "hunter2", "k1", "envsecret"] {
            #expect(!curl.contains(secret), "\(secret)")
        }
    }

    @Test func curlCommandOfAFormAndOfAPlainGet() throws {
        let form = Request(
            method: .put, url: "http://h/x",
            headers: [Header(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: Data("user=me&password=hunter2".utf8))
        #expect(try RequestCommandPrinter(tool: .curl, purpose: .log, redaction: Redaction()).command(for: form).text.hasSuffix("\n  -X PUT \\\n  http://h/x \\\n  -H 'Content-Type: application/x-www-form-urlencoded' \\\n  --data-raw 'user=me&password=***'"))
        #expect(try RequestCommandPrinter(tool: .curl, purpose: .log, redaction: Redaction()).command(for: Request(method: .get, url: "http://h/x")).text == "curl \\\n  http://h/x")
    }

    @Test func endpointCurlOfADeclaredTargetMasksTheAppid() throws {
        let target = Target(
            name: "weather", baseURL: "https://api.openweathermap.org/data/2.5", path: "/weather",
            task: .query([Parameter(name: "q", defaultValue: .text("Suwon")), Parameter(name: "appid")]))
        let request = try Endpoint(
            target: target, arguments: CallArguments(values: [(name: "appid", value: .text("0123abcd"))])).request
        #expect(request.url == "https://api.openweathermap.org/data/2.5/weather?q=Suwon&appid=0123abcd")
        #expect(try RequestCommandPrinter(tool: .curl, purpose: .log, redaction: Redaction()).command(for: request).text == "curl \\\n  'https://api.openweathermap.org/data/2.5/weather?q=Suwon&appid=***'")
    }

    @Test func errorMessagesMaskSecretsInURLs() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "stuck", baseURL: server.baseURL, path: "/never",
                task: .query([Parameter(name: "appid", defaultValue: .text("topsecret"))]), timeout: .milliseconds(200))
            let failure = try #require(await providerError { _ = try await Provider<Target>().request(target) })
            #expect(failure.isTimeout)
            #expect(failure.description == "GET \(server.baseURL)/never?appid=*** timed out after 200 ms")
        }
    }
}
