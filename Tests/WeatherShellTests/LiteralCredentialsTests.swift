import Testing
@testable import WeatherShell

/// A credential typed after `plugin auth` is `***` in what the history keeps; variables stay.
@Suite struct LiteralCredentialsTests {
    @Test(arguments: [
        ("plugin auth bearer abc123xyz host x", "plugin auth bearer *** host x"),
        ("plugin auth on bearer \"two words\" everywhere", "plugin auth on bearer *** everywhere"),
        ("plugin auth basic alice:s3cret host x", "plugin auth basic alice:*** host x"),
        ("plugin auth basic \"al ice:pa ss\"", "plugin auth basic \"al ice:***\""),
        ("plugin auth basic \"al ice\":pw$x", "plugin auth basic \"al ice\":***"),
        ("plugin auth header X-Api-Key:k-123", "plugin auth header X-Api-Key:***"),
        ("echo hi; plugin auth bearer tok-1 # note", "echo hi; plugin auth bearer *** # note"),
        ("plugin auth bearer \"abc", "plugin auth bearer ***"),
        // A raw string is closed with its own quote, so the line kept still reads.
        ("plugin auth header 'X-Api-Key:k 1'", "plugin auth header 'X-Api-Key:***'"),
        ("plugin auth basic 'al\"ice':'p w'", "plugin auth basic 'al\"ice':***"),
        ("plugin auth bearer 'a $b'", "plugin auth bearer ***"),
        ("plugin auth bearer 'abc", "plugin auth bearer ***"),
        ("plugin auth digest alice:s3cret host x", "plugin auth digest alice:*** host x"),
        ("plugin auth on digest \"al ice:pa ss\" everywhere", "plugin auth on digest \"al ice:***\" everywhere"),
        ("plugin auth digest \"abc", "plugin auth digest ***"),
        // A scheme in any case, a scheme wsh does not know, and a `let` the parser refuses.
        ("plugin auth Bearer tok123456 host x", "plugin auth Bearer *** host x"),
        ("plugin auth on Basic alice:pw123456 everywhere", "plugin auth on Basic alice:*** everywhere"),
        ("plugin auth bearr tok123456 host x", "plugin auth bearr *** host x"),
        ("plugin auth basic alice: pw123secret host x", "plugin auth basic alice: *** host x"),
        ("plugin auth header X-Api-Key: abc123secret everywhere", "plugin auth header X-Api-Key: *** everywhere"),
        ("plugin auth Bearer \"tok", "plugin auth Bearer ***"),
        ("plugin auth bearr \"tok", "plugin auth bearr ***"),
        ("let api_key \"abc123456\"", "let api_key ***"),
        ("let api_key == \"abc123456\"", "let api_key == ***"),
        ("let token = public env WSH_TOK", "let token = public env WSH_TOK"),
        ("let token = sk-live-9999 or env WSH_TOK", "let token = *** *** *** ***"),
        ("plugin auth basic sk_test_123: host api.stripe.com", "plugin auth basic ***: host api.stripe.com"),
        ("plugin auth basic sk_test_123: host x bogus", "plugin auth basic ***: host x bogus"),
        // A line that does not lex: a URL with no user-info or query holds no credential.
        ("target tt {\nbase http://127.0.0.1:8080\ndoc \"open", "target tt {\nbase http://127.0.0.1:8080\ndoc \"open"),
        ("target tt {\nbase http://al:pw@h:8080\ndoc \"open", "target tt {\nbase ***"),
    ])
    func literalCredentialsAreHidden(line: String, stored: String) {
        #expect(LiteralCredentials.hidden(in: line) == stored)
    }

    @Test(arguments: [
        "plugin auth bearer $token host x",
        "plugin auth basic $user:$pass",
        "plugin auth basic alice:$pass",
        "plugin auth digest $user:$pass",
        "plugin auth header \"X-Key:$key\"",
        "echo 'plugin auth bearer abc'",
        "plugin auth basic $credential",
        "plugin auth off",
        "echo bearer abc123 basic a:b",
        "plugin logger on verbose",
        "get http://h/x?token=$t&api_key=${key}",
    ])
    func variablesAndOtherStatementsStayAsTyped(line: String) {
        #expect(LiteralCredentials.hidden(in: line) == line)
    }

    @Test(arguments: [
        ("get :8080/x appid==abc123 units==metric", "get :8080/x appid==*** units==metric"),
        ("call current X-API-Key:k-123 lat=1", "call current X-API-Key:*** lat=1"),
        ("get /x Authorization:\"Bearer tok\"", "get /x Authorization:***"),
        ("get /x 'Cookie: session_token=abc; theme=dark'", "get /x 'Cookie:***'"),
        ("call create token:='\"abc\"' n:=3", "call create token:=*** n:=3"),
        ("post /login password=hunter2 name=al", "post /login password=*** name=al"),
        // Bracket names (nested JSON, a list) as the call history reads them: the tester's D4;
        // their words judged as credentials' names, so `filter[keyboard]` keeps its value.
        ("post /post auth[password]=pb7171", "post /post auth[password]=***"),
        ("post /post password[]=pa1111", "post /post password[]=***"),
        ("post /post a[b][api_key]=pa2222 n=1", "post /post a[b][api_key]=*** n=1"),
        ("post /post --form auth[password]=pa3333", "post /post --form auth[password]=***"),
        ("get /get auth[token]==pa4444", "get /get auth[token]==***"),
        ("post /post tags[]=x user[name]=al filter[keyboard]=azerty", "post /post tags[]=x user[name]=al filter[keyboard]=azerty"),
        ("get https://alice:pw-123@h/x?token=t1&a=1", "get https://alice:***@h/x?token=***&a=1"),
        ("get https://alice:pw-123@h/x?token=$t&key=k1", "get https://alice:***@h/x?token=$t&key=***"),
        ("get \"/x?api_key=k1#top\" a==1", "get \"/x?api_key=***#top\" a==1"),
        ("set proxy http://bob:pr-1@proxy:3128", "set proxy http://bob:***@proxy:3128"),
        ("target t { query appid=abc lat=1 }", "target t { query appid=*** lat=1 }"),
        ("let token = \"abc-123\"", "let token = ***"),
        ("let key = env KEY or \"demo-key\"", "let key = env KEY or ***"),
        ("import curl curl 'https://h/x?key=q1' -H 'authorization: Bearer tok-123' -u al:pw-999 -b 'sid=abc123' as x",
         "import curl curl 'https://h/x?key=***' -H 'authorization:***' -u al:*** -b *** as x"),
        ("import curl \"curl https://h/x -H 'X-Api-Key: k-123'\"", "import curl \"curl https://h/x -H 'X-Api-Key: ***'\""),
        ("call t token=\"abc", "call t ***"),
        ("call login creds:='{\"user\": \"al\", \"password\": \"pw-1\"}' n:=3",
         "call login creds:='{\"user\":\"al\",\"password\":\"***\"}' n:=3"),
        ("post /login user=al password=Pa55?word",
         "post /login user=al password=***"),
        ("get /x 'Cookie: sid=abc123; return=https://h/'",
         "get /x 'Cookie:***'"),
        ("get \"https://h/x?user=$U&token=abc123\"",
         "get \"https://h/x?user=$U&token=***\""),
        ("get https://$USER:pw-777@h/x",
         "get https://$USER:***@h/x"),
        ("import curl curl $BASE/x -H 'X-Api-Key: k-123'",
         "import curl curl $BASE/x -H 'X-Api-Key:***'"),
        ("import curl curl https://h/x -H \"Authorization: Bearer $T\" -u al:pw-999",
         "import curl curl https://h/x -H \"Authorization: Bearer $T\" -u al:***"),
        ("import curl \"curl https://h -u al:pw-5 -H 'X-Api-Key: $K'\"",
         "import curl \"curl https://h -u al:*** -H 'X-Api-Key: $K'\""),
        ("import curl curl https://h/x -u al:pw-1 --oauth2-bearer tok-2",
         "import curl curl https://h/x -u al:*** --oauth2-bearer ***"),
        ("import curl curl https://h/login -d 'password=hunter2' -F 'token=tok-123'",
         "import curl curl https://h/login -d 'password=***' -F 'token=***'"),
        ("import curl \"curl https://h -U pu:pp-1 -x http://u:px-1@proxy:3128\"",
         "import curl \"curl https://h -U pu:*** -x http://u:***@proxy:3128\""),
        ("import curl 'curl https://h/x?access_token=ab%2Bcd'",
         "import curl 'curl https://h/x?access_token=***'"),
        ("import curl curl 'https://al:pw-999@h/x?token=ab'",
         "import curl curl 'https://al:***@h/x?token=***'"),
        ("import curl \"curl https://h/x -u x:c\"",
         "import curl ***"),
        ("import curl \"curl https://h/x --json '{\\\"password\\\": \\\"p\\\"}'\"",
         "import curl ***"),
        ("let base = https://alice:pw-1@api.example.com",
         "let base = https://alice:***@api.example.com"),
        ("let token=\"abc123\"",
         "let token=***"),
        ("get /x 'Authorization: Bearer tok-123",
         "get /x ***"),
        ("import curl \"curl -u al:pw-1 https://h",
         "import curl \"curl -u ***"),
        ("echo 1 ; let token = \"abc-123",
         "echo 1 ; let ***"),
        ("get /x \"Authorization\":\"Bearer tok-1\"",
         "get /x \"Authorization\":***"),
        ("set base http://user:pw-1@h:8080",
         "set base http://user:***@h:8080"),
        ("get /headers Authorization: Bearer UNQ-TOK-8", "get /headers Authorization: *** ***"),
        ("get /x X-API-Key: k-9 a==1", "get /x X-API-Key: *** a==1"),
        ("get /x Authorization:Bearer\\ SPACE-TOK-5", "get /x Authorization:*** ***"),
        ("get /x X-API-Key:k-1 > out.json", "get /x X-API-Key:*** > out.json"),
        // A request's flag ends a header's value words; a word that only looks like one stays hidden.
        ("get /x X-API-Key:k-1 --offline", "get /x X-API-Key:*** --offline"),
        ("get /x Authorization: Bearer tok-2 --offline --form -a ana:pw", "get /x Authorization: *** *** --offline --form -a ana:***"),
        ("get /x Authorization:\"Bearer t\" -v --auth-type=digest", "get /x Authorization:*** -v --auth-type=digest"),
        ("get /x Authorization: Bearer -tok-3", "get /x Authorization: *** ***"),
        ("call pages X-API-Key: k-4 --all --max-pages 2", "call pages X-API-Key: *** --all --max-pages 2"),
        // HTTPie's auth flags, and a session id as a query item (issue 35, item 3).
        ("get :8080/x -a ana:pw", "get :8080/x -a ana:***"),
        ("get :8080/x --auth ana:pw -A digest", "get :8080/x --auth ana:*** -A digest"),
        ("get :8080/x -A bearer -a tok-123", "get :8080/x -A bearer -a ***"),
        ("get :8080/x --auth=ana:pw", "get :8080/x --auth=ana:***"),
        ("get :8080/x --auth=tok-123 -A bearer", "get :8080/x --auth=*** -A bearer"),
        // HTTPie's glued forms (argparse's), and a mistyped flag whose value is still a credential.
        ("get :8080/x -aana:GluedPw77", "get :8080/x -aana:***"),
        ("get :8080/x -Abearer -atok-123", "get :8080/x -Abearer -a***"),
        ("get :8080/x -atok-123", "get :8080/x -a***"),
        ("get :8080/x --auth:ana:Pw2", "get :8080/x --auth:***"),
        ("get :8080/x -a\"ana:Pw2\" X-Other:val", "get :8080/x -a\"ana:***\" X-Other:val"),
        ("get :8080/x -Aana:Pw2", "get :8080/x -Aana:***"),
        ("get :8080/x -vaana:Pw2", "get :8080/x -vaana:***"),
        // One rule for every form of a mistyped auth flag: what the flag is given, as the parser
        // reads it (the next word, glued, quoted, after `=`), or the next word when that holds no `:`.
        ("get :8080/x -A al:pw5", "get :8080/x -A al:***"),
        ("get :8080/x -A\"al:pw4\"", "get :8080/x -A\"al:***\""),
        ("get :8080/x -A \"al:pw4\"", "get :8080/x -A \"al:***\""),
        ("get :8080/x -auth al:pw6", "get :8080/x -a*** al:***"),
        ("get :8080/x -A=al:pw7", "get :8080/x -A=al:***"),
        ("get :8080/x -Aal\":pwA\"", "get :8080/x -Aal\":***\""),
        ("get :8080/x -vA al:pwB", "get :8080/x -vA al:***"),
        ("get :8080/x --auth-type al:pwC", "get :8080/x --auth-type al:***"),
        ("get :8080/x --Auth=al:pwD", "get :8080/x --Auth=al:***"),
        ("get :8080/x --authh=tok-E", "get :8080/x --authh=***"),
        ("get :8080/x -A tok-F", "get :8080/x -A ***"),
        // An auth type stays, quoted too, and so does what follows a flag that is given no credential.
        ("get :8080/x -A\"bearer\" -a tok-1", "get :8080/x -A\"bearer\" -a ***"),
        ("get :8080/x -A \"Bearer\" -atok-1 X-Trace:t1", "get :8080/x -A \"Bearer\" -a*** X-Trace:t1"),
        ("get :8080/x -A digest -a al:pw -o out.json -v X-Trace:t1", "get :8080/x -A digest -a al:*** -o out.json -v X-Trace:t1"),
        ("get :8080/x -A $type -a al:pw", "get :8080/x -A $type -a al:***"),
        ("get :8080/x sessionid==s3cr3t", "get :8080/x sessionid==***"),
        // The password of a URL a query value holds, as written and percent-encoded.
        ("get \"http://h/cb?next=http://eve:EvilPw123@h2/x\" q==1", "get \"http://h/cb?next=http://eve:***@h2/x\" q==1"),
        // Percent-encoded, the password holding a `+` its URL encodes, encoded again in the value.
        ("get \"http://h/r?to=http%3A%2F%2Fbob%3AHunter%252B2pw%40host%2Fx\"", "get \"http://h/r?to=http%3A%2F%2Fbob%3A***%40host%2Fx\""),
        ("get http://h/cb?next=http%3A%2F%2Feve%3AEvilPw123%40h2%2F", "get http://h/cb?next=http%3A%2F%2Feve%3A***%40h2%2F"),
        ("get :8080/x -a ana:pw \"unclosed", "get :8080/x -a ***"),
        // A JSON text written whole: its members named like secrets, not all after its first `:`.
        ("target t { sample '{\"access_token\": \"abc-1\", \"expires_in\": 3600}' }",
         "target t { sample '{\"access_token\":\"***\",\"expires_in\":3600}' }"),
    ])
    func requestItemsNamedLikeSecretsAreHidden(line: String, stored: String) {
        #expect(LiteralCredentials.hidden(in: line) == stored)
    }

    @Test(arguments: [
        "get :8080/x appid==$appid units==metric",
        "get :8080/x -a $user:$pass",
        "get :8080/x -A $type -a $cred X-Trace:t1",
        "get :8080/x -A\"bearer\" -a $token",
        "get :8080/x -o out.json X-Trace:t1",
        "get http://h/cb?next=http://h2/x&q=a:b@c",
        "call t Authorization:$auth",
        "get https://h/x?q=1&page=2",
        "let city = \"Suwon\"",
        "let token = .access_token",
        "let token = $other",
        "let key = env KEY",
        "expect status == 200",
        "echo a=1 b:2",
        "import curl curl https://h/x -H 'accept: */*'",
        "call t tags:='[\"a\", \"b\"]' n:=3",
        "print .tags[? .key == \"Name\"].value",
        "get keycloak:8080/realms/x",
        "call t Authorization:\"Bearer $TOKEN\"",
        "echo \"API key: $KEY\"",
    ])
    func itemsNotNamedLikeSecretsStayAsTyped(line: String) {
        #expect(LiteralCredentials.hidden(in: line) == line)
    }

    /// The shell command after `|` is read too: curl's options, other commands' items and URLs.
    @Test(arguments: [
        ("call t | curl -u al:pw-123 -H 'X-Api-Key: k-9' https://h/x -d @-", "call t | curl -u al:*** -H 'X-Api-Key:***' https://h/x -d @-"),
        ("history show 3 | curl -s --oauth2-bearer tok-77 https://bob:pw-5@h/up", "history show 3 | curl -s --oauth2-bearer *** https://bob:***@h/up"),
        ("call t | jq .id | http POST https://h/x token==t-1 a==1", "call t | jq .id | http POST https://h/x token==*** a==1"),
        ("echo x | wget -q --password=pw-8 -O- https://h/ && echo done", "echo x | wget -q --password=*** -O- https://h/ && echo done"),
        ("call t | grep -q ok; plugin auth bearer tok-1", "call t | grep -q ok; plugin auth bearer ***"),
        ("call t | curl -u al:pw-1 \"$(cat x", "call t | curl -u ***"),
    ])
    func credentialsInAPipeCommandAreHidden(line: String, stored: String) {
        #expect(LiteralCredentials.hidden(in: line) == stored)
    }

    @Test(arguments: [
        "call t | jq '.[] | select(.key == 1)'",
        "call t | awk '{print $1; print $2}'",
        "call t | curl -s -d @- https://h/x",
        "call t | tee out.json | wc -c",
    ])
    func pipeCommandsWithoutCredentialsStayAsTyped(line: String) {
        #expect(LiteralCredentials.hidden(in: line) == line)
    }

    @Test func aContinuedLineIsHiddenInItsStatement() {
        #expect(LiteralCredentials.hidden(in: "plugin auth \\\nbearer abc123xyz") == "plugin auth \\\nbearer ***")
    }

    /// A reactor's `state`/`emit` fields, each read as the parser reads it: the comma after a value
    /// separates fields and is not text typed in it, so an empty string or a variable followed by
    /// another field stays (the review's F1: `state token = "", n = 0` was `token = ***`).
    @Test(arguments: [
        #"state token = "", n = 0"#,
        #"state n = 0, token = """#,
        "state token = $t, n = 0",
        "state token = ${t}, n = 0",
        #"state token = "", loading = false"#,
        "emit token = $t, loading = false",
        "emit token = .access_token, loading = false",
        "state token = env WSH_TOK, n = 0",
        #"reactor li { state token = "", loading = false; action login { emit token = $t, loading = false } }"#,
    ])
    func reactorFieldsFromVariablesOrEmptyStay(line: String) {
        #expect(LiteralCredentials.hidden(in: line) == line)
    }

    /// A literal under a credential's name is hidden with or without a field after it; a JSON text
    /// under any name has its members named like secrets hidden, as in `let` (the review's F2).
    @Test(arguments: [
        (#"state token = "t-123", n = 0"#, "state token = ***, n = 0"),
        (#"state n = 0, token = "t-123""#, "state n = 0, token = ***"),
        ("emit api_key = sk-live-1, loading = false", "emit api_key = ***, loading = false"),
        (#"state conf = '{"password": "hunter2xyz"}', n = 0"#, #"state conf = '{"password":"***"}', n = 0"#),
        (#"emit conf = '{"token": "tk-9"}'"#, #"emit conf = '{"token":"***"}'"#),
        (#"state conf = '{"name": "al"}', n = 0"#, #"state conf = '{"name": "al"}', n = 0"#),
        // A field continued on its own line without `state` (the review's F5): a parse error, remembered all the same.
        ("reactor ml {\n  state user = \"bob\",\n    password = \"hunter2multi\"\n}", "reactor ml {\n  state user = \"bob\",\n    password = ***\n}"),
        // Mistyped: no blanks around `=`, as `let api_key="k"` is read (review-reactors2 R7); a leading comma.
        (#"state api_key="sk-live-oneline1", n = 0"#, "state api_key=***, n = 0"),
        ("reactor m2 {\n  state user = \"bob\"\n  , api_key = \"sk-live-leadcomma\"\n}", "reactor m2 {\n  state user = \"bob\"\n  , api_key = ***\n}"),
        // The same with the comma attached to the next name, or without blanks (review-main7 R3).
        (#",api_key="sk-live-GGG8""#, ",api_key=***"),
        (#"    api_key="sk-live-III0""#, "    api_key=***"),
        (#"state user = "bob" ,api_key = "sk-live-KKK2""#, #"state user = "bob" ,api_key = ***"#),
        (#"state token="tok-CCC3",password="pw-CCC4""#, "state token=***,password=***"),
        (#"state n = 1,api_key="sk-live-n1", user = "bob""#, #"state n = 1,api_key=***, user = "bob""#),
        // A blank on one side of `=` only (review-rsecrets3 R2).
        (#"state api_key= "AAA2""#, "state api_key= ***"), (#"state api_key ="AAA3""#, "state api_key =***"),
        ("state api_key =ASEC5", "state api_key =***"), ("state api_key= ASEC6", "state api_key= ***"),
        (#"state n = 1,api_key ="AAB3""#, "state n = 1,api_key =***"), (#"state n = 1 ,api_key= "AAB4""#, "state n = 1 ,api_key= ***"),
        (#"    ,token= "MSEC3""#, "    ,token= ***"), ("    password =MSEC5", "    password =***"),
        // A comma in a value is the value's: the whole credential is hidden, a value's text stays.
        ("state api_key = sk,live", "state api_key = ***"),
        ("state tags = a,b, token = t-1", "state tags = a,b, token = ***"),
    ])
    func reactorFieldsTypedAsTextAreHidden(line: String, stored: String) {
        #expect(LiteralCredentials.hidden(in: line) == stored)
    }

    /// Once a reactor is declared, a line that does not lex and names no reactor with a credential
    /// parameter is judged as before (the review's F3: `echo -b foo "x` became `echo -b ***`).
    @Test func aLineNamingNoCredentialReactorIsJudgedAsBefore() {
        let line = #"echo -b foo "unterminated"#
        #expect(LiteralCredentials.hidden(in: line, actions: ["sk": ["go": [0]]]) == line)
        #expect(LiteralCredentials.hidden(in: "sk go tok-123", actions: ["sk": ["go": [0]]]) == "sk go ***")
    }

    /// The source line an error quotes: the credential starred column for column, so the caret
    /// under it still points at the same word.
    @Test(arguments: [
        ("get http://al:secretpw@h:9/x", "get http://al:********@h:9/x"),
        ("get http://al:pa/ss@h:9/x", "get http://al:*****@h:9/x"),
        ("get http://h/x appid==abc12345 q==1", "get http://h/x appid==******** q==1"),
        ("get http://h/x?token=t-ü-1&q=1", "get http://h/x?token=*****&q=1"),
        ("plugin auth bearer tok-1234567 host h", "plugin auth bearer *********** host h"),
        ("plugin auth bearer \"abc", "plugin auth bearer ****"),
        ("get http://h/x q==1", "get http://h/x q==1"),
        ("get http://al:pässwört@h/", "get http://al:********@h/"),
        // A password and a query value: each starred on its own, the host and path between them as typed.
        ("get http://bob:hunter2@h:9/anything?token=abc > /dev/null", "get http://bob:*******@h:9/anything?token=*** > /dev/null"),
        // A variable is its name, not a secret.
        ("get http://h/x?token=$t&key=${k}&q=1", "get http://h/x?token=$t&key=${k}&q=1"),
        ("get http://h/x?token=$t&key=k1", "get http://h/x?token=$t&key=**"),
        // A mistyped auth flag's value, and the password of a URL a query value holds.
        ("get http://h/x -A al:pw55", "get http://h/x -A al:****"),
        ("get http://h/x -auth al:pw6", "get http://h/x -a*** al:***"),
        ("get http://h/cb?next=http://eve:EvilPw123@h2/&q=1", "get http://h/cb?next=http://eve:*********@h2/&q=1"),
        // A line that does not lex is read word by word: only the credentials are starred.
        ("get https://api.example.com/x q==\"abc", "get https://api.example.com/x q==\"abc"),
        ("get http://al:pw-12@h/x token==\"abc q==1", "get http://al:*****@h/x token==**** q==1"),
    ])
    func anErrorsSourceLineHidesCredentialsKeepingColumns(line: String, shown: String) {
        let hidden = LiteralCredentials.hiddenKeepingColumns(in: line)
        #expect(hidden == shown)
        #expect(hidden.unicodeScalars.count == line.unicodeScalars.count)
    }

    /// The source line an error quotes has `***` for a credential, whatever its length; the caret
    /// after it moves with it, and a caret on it stands under its `***`.
    @Test(arguments: [("zz", "^~"), ("abcdef123", "^~~")])
    func anErrorsSourceLineShowsACredentialAsThreeStars(word: String, caret: String) throws {
        let text = "get http://h/x token==abcdef123 zz"
        let file = SourceFile(name: "t.wsh", directory: "/", text: text)
        let start = try #require(text.range(of: word)).lowerBound.utf16Offset(in: text)
        let shown = Diagnostic(.parse, "x", file: file, span: SourceSpan(start: start, end: start + word.utf8.count)).rendered()
        let column = word == "zz" ? "get http://h/x token==*** ".count : "get http://h/x token==".count
        #expect(shown.contains("   get http://h/x token==*** zz\n   " + String(repeating: " ", count: column) + caret + "\n"), "\(shown)")
        #expect(!shown.contains("abcdef123"))
    }

    /// A secret value (from `env`) masked in the quoted line moves the caret after it with it
    /// (issue 35, item 6: it stood 33 columns off), and one the caret is under stands under `***`.
    @Test(arguments: [("$nope", "^~~~~"), ("abcdefghijklmnopqrstuvwxyz0123456789", "^~~")])
    func aMaskedSecretValueMovesTheCaretWithIt(word: String, caret: String) throws {
        let secret = "abcdefghijklmnopqrstuvwxyz0123456789"
        let text = "let t = env TOK; echo \(secret) $nope"
        let file = SourceFile(name: "t.wsh", directory: "/", text: text)
        let start = try #require(text.range(of: word)).lowerBound.utf16Offset(in: text)
        let mask = { (line: String) in line.replacingOccurrences(of: secret, with: "***") }
        let shown = Diagnostic(.runtime, "x", file: file, span: SourceSpan(start: start, end: start + word.utf8.count)).rendered(mask: mask)
        let column = word == "$nope" ? "let t = env TOK; echo *** ".count : "let t = env TOK; echo ".count
        #expect(shown.contains("   let t = env TOK; echo *** $nope\n   " + String(repeating: " ", count: column) + caret + "\n"), "\(shown)")
    }

    /// A line continued with `\` is read in its whole statement: the credential on the second
    /// line is an item of the `get` on the first.
    @Test(arguments: ["\n", "\r\n"])
    func anErrorOnAContinuedLineHidesItsCredentials(lineEnd: String) {
        let text = ["get http://h/x \\", "  token==abc123 zz \\", "  q==1", ""].joined(separator: lineEnd)
        let file = SourceFile(name: "t.wsh", directory: "/", text: text)
        let start = Array(text.utf8).firstIndex(of: UInt8(ascii: "z")) ?? 0
        let shown = Diagnostic(.parse, "expected an item", file: file, span: SourceSpan(start: start, end: start + 2)).rendered()
        #expect(!shown.contains("abc123") && shown.contains("     token==*** zz \\\n   " + String(repeating: " ", count: 13) + "^~\n"), "\(shown)")
    }
}

/// A request's `-a` credential is `***` in the line the history keeps and an error quotes.
@Suite struct RequestFlagCredentialsTests {
    @Test(arguments: [
        ("get /x -a ann:s3cret", "get /x -a ann:***"),
        ("get /x --auth 'ann:pa ss' q==1", "get /x --auth 'ann:***' q==1"),
        ("post /x --auth=ann:s3cret name=a", "post /x --auth=ann:*** name=a"),
        ("get /x -A bearer -a tok:en-1", "get /x -A bearer -a ***"),
        ("request PROPFIND /x -a ann:s3cret", "request PROPFIND /x -a ann:***"),
    ])
    func authValuesAreHidden(line: String, stored: String) {
        #expect(LiteralCredentials.hidden(in: line) == stored)
    }

    @Test func aVariableStays() {
        #expect(LiteralCredentials.hidden(in: "get /x -a $credential") == "get /x -a $credential")
    }

    @Test func flagsAreReadWithTheirValues() throws {
        let text = "get /x -a ann:pw --auth-type=digest -v -F --offline --check-status -o out.json"
        let statements = try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: text)).statements
        guard case .request(let request) = statements.first?.kind else { Issue.record("not a request"); return }
        #expect(request.flags.auth?.literal == "ann:pw")
        #expect(request.flags.authType == .digest)
        #expect(request.flags.print == .verbose && request.flags.follow && request.flags.offline && request.flags.checkStatus)
        #expect(request.output?.literal == "out.json")
        #expect(request.items.isEmpty)
    }

    /// `-A` quoted is read as argparse reads it (`-A"bearer"` is `-A bearer`); a variable is kept
    /// to be read when the request runs.
    @Test(arguments: [("-A\"bearer\"", "bearer", nil), ("-A 'Bearer'", "bearer", nil), ("--auth-type=\"digest\"", "digest", nil),
                      ("-A $type", "basic", "type"), ("-A\"$type\"", "basic", "type"),
                      // The last `-A` wins, as in HTTPie (review-cli L1).
                      ("-A $type -A digest", "digest", nil), ("-A digest -A $type", "digest", "type")])
    func aQuotedAuthTypeIsReadAndAVariableKept(flag: String, type: String, variable: String?) throws {
        let text = "get /x \(flag) -a tok-1"
        let statements = try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: text)).statements
        guard case .request(let request) = statements.first?.kind else { Issue.record("not a request"); return }
        #expect(request.flags.authType.rawValue == type)
        #expect(request.flags.authTypeWord?.parts.contains { $0.content == .variable(variable ?? "") } ?? (variable == nil), "\(flag)")
        #expect(request.items.isEmpty)
    }
}
