import Foundation
import Testing
import TestSupport

/// Reactor commands in the built binary: the exact sequence of echoed states.
@Suite struct ReactorCommandTests {
    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: CallTests.repository.appendingPathComponent(name), encoding: .utf8)
    }

    /// The weather targets, redeclared against the loopback server.
    static func weatherTargets(_ server: TestServer) -> String {
        """
        target current {
          base \(server.baseURL)
          path /v1/forecast
          query latitude longitude current=temperature_2m
        }
        target hourly {
          base \(server.baseURL)
          path /v1/hourly
          query latitude longitude hourly=temperature_2m
        }
        target geocode {
          base \(server.baseURL)
          path /v1/search
          query name
        }

        """
    }

    /// Runs `body` with a server answering the weather targets from the pack's samples.
    static func withWeatherServer(_ body: (TestServer) async throws -> Void) async throws {
        try await withLoopbackServer(routes: [
            "/v1/forecast": StaticRoute(body: try fixture("packs/samples/open-meteo-current.json")),
            "/v1/hourly": StaticRoute(body: try fixture("packs/samples/open-meteo-hourly.json")),
            "/v1/search": StaticRoute(body: try fixture("packs/samples/open-meteo-geocoding.json")),
        ], body)
    }

    static let idle = #"weather | view="none" place="37.27,127.11" source="open-meteo" temperature=null min=null max=null time="" forecast_time="" unit="°C""#
    static let current = #"weather | view="current" place="37.27,127.11" source="open-meteo" temperature=6.8 min=1.9 max=12.4 time="2026-11-21T09:45" forecast_time="" unit="°C""#

    @Test func weatherCurrentEchoesLoadingReadingAndLoadingOff() async throws {
        try await Self.withWeatherServer { server in
            let result = try await WSHProcess.run(["-c", Self.weatherTargets(server) + "weather current\nweather forecast 4"])
            #expect(result.status == 0, "\(result.stderr)")
            let forecast = #"weather | view="forecast" place="37.27,127.11" source="open-meteo" temperature=12.1 min=null max=null time="2026-11-21T09:45" forecast_time="2026-11-21T14:00" unit="°C""#
            #expect(result.stdout.split(separator: "\n").map(String.init) == [
                Self.idle + #" loading=true error="""#,
                Self.current + #" loading=true error="""#,
                Self.current + #" loading=false error="""#,
                Self.current + #" loading=true error="""#,
                forecast + #" loading=true error="""#,
                forecast + #" loading=false error="""#,
            ])
            #expect(server.hits("/v1/forecast") == 1)
            #expect(server.hits("/v1/hourly") == 1)
        }
    }

    @Test func weatherCurrentWithACityGeocodesIt() async throws {
        try await Self.withWeatherServer { server in
            let result = try await WSHProcess.run(["-c", Self.weatherTargets(server) + "weather current Suwon\nprint .current.temperature_2m"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#"place="Suwon" source="open-meteo" temperature=6.8"#))
            #expect(server.hits("/v1/search") == 1)
        }
    }

    /// A weather command whose API cannot be reached (offline, the README's first step) points to
    /// the samples that answer with no network; stubbed, nothing is reached and no note is needed.
    @Test func anUnreachableWeatherAPIPointsToTheStub() async throws {
        let targets = "target current { base http://127.0.0.1:9; path /v1/forecast; query latitude longitude current=temperature_2m }\n"
        let result = try await WSHProcess.run(["-c", targets + "weather current"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("error: weather current: could not connect to 127.0.0.1:9"), "\(result.stderr)")
        #expect(result.stderr.contains("note: offline? 'wsh --stub' (or 'set stub on' here) answers from the packs' sample data"), "\(result.stderr)")
    }

    @Test func stubbedWeatherNeedsNoTargetsAndNoNetwork() async throws {
        let result = try await WSHProcess.run(["--stub", "-c", "weather current\nweather forecast 4"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines[2].contains("temperature=6.8 min=1.9 max=12.4"))
        #expect(lines[5].contains(#"forecast_time="2026-11-21T14:00""#))
    }

    @Test func weatherFailureShowsTheErrorInStateAndExitsThree() async throws {
        try await withLoopbackServer { server in
            let targets = "target current {\n base \(server.baseURL)\n path /status/503\n query latitude longitude\n validate 2xx\n}\ntarget hourly {\n base \(server.baseURL)\n path /x\n}\ntarget geocode {\n base \(server.baseURL)\n path /x\n}\n"
            let result = try await WSHProcess.run(["-c", targets + "weather current"])
            #expect(result.status == 3)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.last?.contains("loading=false error=\"") == true)
            #expect(lines.last?.contains("503") == true)
            #expect(result.stderr.contains("error: weather current:"))
        }
    }

    @Test func counterEchoesNineLinesEndingWithOne() async throws {
        let result = try await WSHProcess.run(["-c", "set counter-delay 20ms\ncounter increase; counter increase; counter decrease"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "counter | value=0 loading=true", "counter | value=1 loading=true", "counter | value=1 loading=false",
            "counter | value=1 loading=true", "counter | value=2 loading=true", "counter | value=2 loading=false",
            "counter | value=2 loading=true", "counter | value=1 loading=true", "counter | value=1 loading=false",
        ])
    }

    static let quoteReactor = """
    reactor quote {
      state content = "", author = "", loading = false, error = ""
      action refresh unless loading {
        emit loading = true
        call quote
        emit content = .content, author = .author, loading = false
      } catch {
        emit error = $error, loading = false
      }
    }

    """

    @Test func declaredReactorRunsItsActionAndEchoesEachEmit() async throws {
        try await withLoopbackServer(routes: ["/random": StaticRoute(body: try Self.fixture("examples/fixtures/quote.json"))]) { server in
            let result = try await WSHProcess.run(["-c", "target quote {\n base \(server.baseURL)\n path /random\n}\n" + Self.quoteReactor + "quote refresh\nstate quote"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0] == #"quote | content="" author="" loading=true error="""#)
            #expect(lines[1].hasPrefix(#"quote | content="The problem with Google"#))
            #expect(lines[1].hasSuffix(#"author="William Hurt" loading=false error="""#))
            #expect(lines[2] == lines[1])
        }
    }

    @Test func declaredReactorCatchesA500AndTheShellKeepsGoing() async throws {
        try await withLoopbackServer { server in
            let script = "set bail off\ntarget quote {\n base \(server.baseURL)\n path /status/500\n validate 2xx\n}\n" + Self.quoteReactor + "quote refresh\necho still here\nquote refrsh"
            let result = try await WSHProcess.run(["-c", script])
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0] == #"quote | content="" author="" loading=true error="""#)
            #expect(lines[1].hasPrefix(#"quote | content="" author="" loading=false error=""#))
            #expect(lines[1].contains("500"))
            #expect(lines[2] == "still here")
            #expect(result.stderr.contains("unknown action 'refrsh' for 'quote'"))
            #expect(result.stderr.contains("did you mean 'refresh'?"))
            #expect(result.status == 3)
        }
    }

    /// A failed `expect` in an action runs its `catch` (the state is not left loading) and still
    /// fails: the script exits 4 and `wsh test` counts a failed check. The `catch` took it, and
    /// both said the script passed.
    @Test func aCatchCleansUpAfterAFailedExpectButDoesNotPassIt() async throws {
        try await withLoopbackServer(routes: ["/random": StaticRoute(body: Array(#"{"content": "x", "author": "Ada"}"#.utf8))]) { server in
            let reactor = Self.quoteReactor.replacingOccurrences(of: "    call quote\n", with: "    call quote\n    expect .author == \"Bob\"\n")
            let script = "target quote {\n base \(server.baseURL)\n path /random\n}\n" + reactor + "quote refresh\necho after\n"
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").map(String.init) == [
                #"quote | content="" author="" loading=true error="""#,
                #"quote | content="" author="" loading=false error="expectation failed: .author == \"Bob\"""#,
            ], "the catch ran, and bail stopped the script after it")
            #expect(result.stderr.contains("expectation failed: .author == \"Bob\"") && result.stderr.contains("actual:   \"Ada\""), "\(result.stderr)")

            let directory = try TestRunnerTests.suite(["reactor.wsh": script])
            let test = try await WSHProcess.run(["test", "tests"], directory: directory)
            #expect(test.status == 4, "\(test.stdout)\(test.stderr)")
            #expect(test.stdout.contains("0 passed, 1 failed"), "\(test.stdout)")
        }
    }

    /// An action with no `catch` that failed (a call answered 500, a failed `expect`, a `catch` that
    /// failed itself) left its `unless` field true, and every later run said `skipped while
    /// loading is true`.
    @Test func aFailedActionLeavesItsUnlessFieldOff() async throws {
        try await withLoopbackServer(routes: ["/ok": StaticRoute(body: #"{"n": 1}"#)]) { server in
            let script = """
            set bail off
            target dead { base \(server.baseURL); path /status/500; validate 2xx }
            target ok { base \(server.baseURL); path /ok }
            reactor r {
              state loading = false
              action go unless loading { emit loading = true; call dead; emit loading = false }
              action check unless loading { emit loading = true; call ok; expect .n == 2; emit loading = false }
              action caught unless loading { emit loading = true; call dead } catch { call dead }
            }
            r go
            r go
            r check
            r check
            r caught
            r caught
            """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 3, "\(result.stderr)")
            #expect(!result.stderr.contains("skipped"), "\(result.stderr)")
            #expect(result.stderr.components(separatedBy: "expectation failed: .n == 2").count == 3, "the check still fails: \(result.stderr)")
            let runs: [[String]] = Array(repeating: ["r | loading=true", "r | loading=false"], count: 6)
            let lines: [String] = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines == runs.flatMap { $0 })
        }
    }

    /// A `catch` that took an error skipped the body's `emit loading = false`: `loading` stayed
    /// true and every later run said `skipped while loading is true` (D19). It is set back, one
    /// echo line, when the body holds that `emit` (here inside an `if` too); a latch the body
    /// never releases stays: a `catch` that sets it, itself or through another action, and a
    /// body that sets it true before the error (review 8 H2, review 11 H1 and L1).
    @Test func aCaughtErrorSetsBackTheUnlessFieldTheBodyWouldHaveSetBack() async throws {
        try await withLoopbackServer { server in
            let script = """
            set bail off
            target dead { base \(server.baseURL); path /status/500; validate 2xx }
            target ok { base \(server.baseURL); path /status/200 }
            reactor r {
              state loading = false, error = ""
              action load unless loading { emit loading = true; call dead; emit loading = false } catch { emit error = "load" }
              action nested unless loading { emit loading = true; call dead; if 1 == 1 { emit loading = false } } catch { emit error = "nested" }
            }
            reactor s {
              state tripped = false
              action fetch unless tripped { call dead } catch { emit tripped = true }
            }
            reactor u {
              state tripped = false
              action trip { emit tripped = true }
              action fetch unless tripped { call dead } catch { u trip }
            }
            reactor t {
              state ready = false, error = ""
              action setup unless ready { call ok; emit ready = true; call dead } catch { emit error = "setup" }
            }
            reactor v {
              state tripped = false
              action fetch unless tripped { call dead; emit tripped = false } catch { emit tripped = true }
              action check unless tripped { call dead; if status == 200 { emit tripped = false } else { emit tripped = true } } catch { emit tripped = true }
            }
            r load
            r load
            r nested
            s fetch
            s fetch
            u fetch
            u fetch
            t setup
            t setup
            v fetch
            v fetch
            v check
            """
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").map(String.init) == [
                #"r | loading=true error="""#, #"r | loading=true error="load""#, #"r | loading=false error="load""#,
                #"r | loading=true error="load""#, #"r | loading=true error="load""#, #"r | loading=false error="load""#,
                #"r | loading=true error="load""#, #"r | loading=true error="nested""#, #"r | loading=false error="nested""#,
                "s | tripped=true", "u | tripped=true", #"t | ready=true error="""#, #"t | ready=true error="setup""#,
                // A breaker whose success path lowers the latch (review 14 H1): the catch raised it, so it stays.
                "v | tripped=true",
            ], "\(result.stdout)")
            #expect(result.stderr.split(separator: "\n").map(String.init) == [
                "s fetch: skipped while tripped is true", "u fetch: skipped while tripped is true", "t setup: skipped while ready is true",
                "v fetch: skipped while tripped is true", "v check: skipped while tripped is true",
            ], "\(result.stderr)")
        }
    }

    /// Lists and objects were echoed as strings holding their JSON: `"a":"[1,2]"`.
    @Test func listsAndObjectsAreEchoedAsJSON() async throws {
        try await withLoopbackServer(routes: ["/o": StaticRoute(body: #"{"items": [3, 4], "o": {"k": true}}"#)]) { server in
            let script = "target o { base \(server.baseURL); path /o }\nreactor r {\n  state a = [1,2], b = null\n  action load { call o; emit a = .items, b = .o }\n}\n"
                + "set echo json\nstate r\nr load\nset echo line\nstate r"
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").map(String.init) == [
                #"{"r":{"a":[1,2],"b":null}}"#, #"{"r":{"a":[3,4],"b":{"k":true}}}"#, #"r | a=[3,4] b={"k":true}"#,
            ])
        }
    }

    /// Ten reactors each running the next one's action were told "an action that runs its own
    /// reactor's actions never ends", which only a chain that comes back to a reactor can do.
    @Test func aChainTooDeepIsNamedAndARepeatedReactorIsSaid() async throws {
        let chain = "reactor r0 { state v = 0; action a { emit v = 1 } }\n"
            + (1...9).map { "reactor r\($0) { state v = 0; action a { r\($0 - 1) a } }\n" }.joined() + "r9 a"
        let long = try await WSHProcess.run(["-c", chain])
        #expect(long.status == 3)
        #expect(long.stderr.contains("reactor actions nest more than 8 deep"), "\(long.stderr)")
        #expect(long.stderr.contains("the chain: r9 a -> r8 a -> r7 a -> r6 a -> r5 a -> r4 a -> r3 a -> r2 a -> r1 a"), "\(long.stderr)")
        #expect(long.stderr.contains("no reactor comes twice in it; it is only deeper than 8"), "\(long.stderr)")
        #expect(!long.stderr.contains("never end"), "\(long.stderr)")

        let loop = try await WSHProcess.run(["-c", "reactor s { state v = 0; action a { s b }; action b { s a } }\ns a"])
        #expect(loop.status == 3)
        #expect(loop.stderr.contains("the chain: s a -> s b -> s a"), "\(loop.stderr)")
        #expect(loop.stderr.contains("'s' comes back in it: an action that runs its own reactor's actions may never end"), "\(loop.stderr)")
    }

    /// A reading from `current_weather` (Open-Meteo's older block) was labelled °C whatever its
    /// `current_weather_units` said; the answer here is Fahrenheit.
    @Test func weatherCurrentTakesTheUnitOfTheBlockItReads() async throws {
        try await withLoopbackServer(routes: [
            "/v1/forecast": StaticRoute(body: try Self.fixture("Fuzz/corpus/seed/fixtures-real-open-meteo-forecast.json")),
            "/v1/search": StaticRoute(body: try Self.fixture("packs/samples/open-meteo-geocoding.json")),
        ]) { server in
            let result = try await WSHProcess.run(["-c", "set base \(server.baseURL)\nweather current Suwon"])
            #expect(result.status == 0, "\(result.stderr)")
            let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.contains("temperature=46.5") && last.contains(#"unit="°F""#), "\(result.stdout)")
        }
    }

    /// A forecast kept the min and max of the reading before it, and `weather use` kept the reading
    /// under the new source (reactors tester's M3): here the current reading is in °C with a day's
    /// range and the hourly answer (a real one) in °F, which showed `min=1.9 max=12.4 unit="°F"`.
    @Test func aReadingNeverShowsFieldsOfAnotherReading() async throws {
        try await withLoopbackServer(routes: [
            "/v1/forecast": StaticRoute(body: try Self.fixture("packs/samples/open-meteo-current.json")),
            "/v1/hourly": StaticRoute(body: try Self.fixture("Fuzz/corpus/seed/fixtures-real-open-meteo-forecast.json")),
        ]) { server in
            let result = try await WSHProcess.run(["-c", Self.weatherTargets(server) + "weather current\nweather forecast 2"])
            #expect(result.status == 0, "\(result.stderr)")
            let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.contains(#"view="forecast" place="37.27,127.11" source="open-meteo" temperature=44.4 min=null max=null"#)
                    && last.contains(#"unit="°F""#), "\(result.stdout)")
        }
        let switched = try await WSHProcess.run(["--stub", "-c", "weather current\nweather use openweathermap\nstate weather"])
        #expect(switched.status == 0, "\(switched.stderr)")
        let lines = switched.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5 && lines[3] == lines[4], "\(switched.stdout)")
        #expect(lines.last?.contains(#"view="none" place="37.27,127.11" source="openweathermap" temperature=null min=null max=null time="" forecast_time="""#) == true,
                "\(switched.stdout)")
    }

    /// A call in an action prints no body, and `call q | head -c 11` ran head on nothing
    /// (reactors tester's L6): the `|` gives the command the body.
    @Test func aPipedCallInAnActionGivesTheCommandTheBody() async throws {
        try await withLoopbackServer(routes: ["/random": StaticRoute(body: try Self.fixture("examples/fixtures/quote.json"))]) { server in
            let script = "target q { base \(server.baseURL); path /random }\n"
                + "reactor r { state n = 0; action a { call q | head -c 11; echo; call q; emit n = 1 } }\nr a"
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "{\"_id\":\"Ksj\nr | n=1\n", "\(result)")
        }
    }

    /// 날씨 is letters: the rule is ASCII letters, and the message said only "letters" (reactors tester's L8).
    @Test func aNameRefusedForItsLettersSaysASCII() async throws {
        let result = try await WSHProcess.run(["-c", "reactor 날씨 { state n = 0 }"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("error: a reactor name is ASCII letters, digits, '_' and '-'"), "\(result)")
    }

    /// A target of the user's named `current` (their own API) made `weather current` fail with
    /// a message about that target alone (reactors tester's L9): a note says why it was called.
    @Test func aWeatherCommandFailingOnATargetOfTheUsersSaysWhyItCalledIt() async throws {
        try await withLoopbackServer(routes: ["/random": StaticRoute(body: try Self.fixture("examples/fixtures/quote.json"))]) { server in
            let result = try await WSHProcess.run(["--stub", "-c", "target current { base \(server.baseURL); path /random }\nweather current"])
            #expect(result.status == 3, "\(result)")
            #expect(result.stderr.contains("note: the weather commands call the targets current, hourly, geocode by name, and 'current' is yours, "
                                           + "not the open-meteo pack's ('use open-meteo' declares the pack's again)"), "\(result)")
            let pack = try await WSHProcess.run(["--stub", "-c", "target current { base \(server.baseURL); path /random }\nuse open-meteo\nweather current"])
            #expect(pack.status == 0 && pack.stdout.contains("temperature=6.8"), "\(pack)")
            // A call of the pack's own target that failed names no other target of the user's (review-reactors2 R6).
            let other = try await WSHProcess.run(["-c", "target geocode { base http://127.0.0.1:9/v1; path /search; query name }\n"
                                                  + "set base http://127.0.0.1:9\nweather forecast 3"])
            #expect(other.status == 3 && other.stderr.contains("connection refused"), "\(other)")
            #expect(!other.stderr.contains("'geocode' is yours"), "\(other.stderr)")
        }
    }

    /// `weather current LAT LON` sent the coordinates through a Double (`127.12345678901235`), and
    /// read `0x10` as 16 (reactors tester's L10): they are sent with the digits typed.
    @Test func coordinatesAreSentWithTheDigitsTyped() async throws {
        try await Self.withWeatherServer { server in
            let result = try await WSHProcess.run(["-c", Self.weatherTargets(server) + "weather current 37.50000000000000001 +127.123456789012345"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(#"place="37.50000000000000001,127.123456789012345""#), "\(result)")
            #expect(server.requests.first?.query.contains("latitude=37.50000000000000001&longitude=127.123456789012345") == true,
                    "\(server.requests.map(\.query))")
            // The range is checked on those digits, not on a Double that rounds them to 90 (review-reactors2 R1).
            for (lat, lon) in [("90.0000000000000001", "0"), ("0", "-180.00000000000000001")] {
                let outside = try await WSHProcess.run(["-c", Self.weatherTargets(server) + "weather current \(lat) \(lon)"])
                #expect(outside.status != 0 && outside.stderr.contains("a coordinate is LAT LON with -90 <= LAT <= 90"), "\(outside)")
            }
            let edge = try await WSHProcess.run(["-c", Self.weatherTargets(server) + "weather current -90.000 180"])
            #expect(edge.status == 0, "\(edge)")
            #expect(server.requests.count == 2, "nothing sent for a coordinate outside: \(server.requests.map(\.query))")
        }
    }

    /// A reactor named like a page of the manual hid the page (`help reactors`; the review's F6):
    /// the page comes after the reactor, as a target of the name does.
    @Test func helpShowsTheManualsPageAfterAReactorOfItsName() async throws {
        let result = try await WSHProcess.run(["-c", "reactor reactors { state n = 0; action go { emit n = 1 } }; help reactors"])
        #expect(result.status == 0, "\(result)")
        let page = try Self.fixture("docs/reactors.md")
        #expect(result.stdout.hasPrefix("usage: reactors go\n"), "\(result)")
        #expect(result.stdout.hasSuffix("\nThe manual's page 'reactors':\n\n" + page), "\(result.stdout.prefix(400))")
    }

    /// Open-Meteo's `hourly` answers today and tomorrow: from the sample's reading at 09:45, 37
    /// hours is its last hour, and 38 said only `no hourly temperature` (reactors tester's L5).
    @Test func aForecastPastTheAnswersHoursSaysWhereTheyEnd() async throws {
        let last = try await WSHProcess.run(["--stub", "-c", "weather forecast 37"])
        #expect(last.status == 0 && last.stdout.contains(#"forecast_time="2026-11-22T23:00""#), "\(last)")
        let past = try await WSHProcess.run(["--stub", "-c", "weather forecast 38"])
        #expect(past.status == 3, "\(past)")
        #expect(past.stderr.contains("error: weather forecast: no hourly temperature 38 hours after 2026-11-21T09:45: the answer's hours end at 2026-11-22T23:00"), "\(past)")
    }

    /// Under `--stub`, OpenWeatherMap's sample (an answer to `units=metric`) was labelled `°F`
    /// after `set units fahrenheit` (docs tester's F17): its unit is the sample's.
    @Test func anOpenWeatherMapSampleKeepsItsUnitUnderFahrenheit() async throws {
        let result = try await WSHProcess.run(["--stub", "-c", "weather use openweathermap\nset units fahrenheit\nweather current\nweather forecast 3"])
        #expect(result.status == 0, "\(result.stderr)")
        let readings = result.stdout.split(separator: "\n").filter { $0.contains("(sample data)") && $0.contains("loading=false") }
        #expect(readings.count == 2 && readings.allSatisfy { $0.contains(#"unit="°C""#) }, "\(result.stdout)")
    }

    /// `weather use openweathermap` loaded that pack, which has no `geocode`: a city failed with
    /// `no target 'geocode'`. Open-meteo's `geocode` is loaded for it, and no other target.
    @Test func openWeatherMapGeocodesWithOpenMeteosGeocode() async throws {
        let stubbed = try await WSHProcess.run(["--stub", "-c", "weather use openweathermap\nweather current London\ntargets"])
        #expect(stubbed.status == 0, "\(stubbed.stderr)")
        #expect(stubbed.stdout.contains(#"source="openweathermap (sample data)""#), "\(stubbed.stdout)")
        #expect(stubbed.stdout.contains("asked for London"), "\(stubbed.stdout)")
        #expect(!stubbed.stdout.contains("hourly"), "only geocode of open-meteo's targets: \(stubbed.stdout)")

        try await withLoopbackServer(routes: [
            "/data/2.5/weather": StaticRoute(body: try Self.fixture("packs/samples/openweathermap-weather.json")),
            "/v1/search": StaticRoute(body: try Self.fixture("packs/samples/open-meteo-geocoding.json")),
        ]) { server in
            let result = try await WSHProcess.run(["-c", "set base \(server.baseURL)\nweather use openweathermap\nweather current Suwon"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").last?.contains(#"place="Suwon" source="openweathermap""#) == true, "\(result.stdout)")
            #expect(server.hits("/v1/search") == 1)
        }
    }

    /// A pack loaded for a missing target replaced the targets you had declared with its own.
    @Test func theWeatherCommandsKeepATargetYouDeclared() async throws {
        try await withLoopbackServer(routes: [
            "/mine": StaticRoute(body: try Self.fixture("packs/samples/open-meteo-current.json")),
            "/v1/search": StaticRoute(body: try Self.fixture("packs/samples/open-meteo-geocoding.json")),
        ]) { server in
            let script = "set base \(server.baseURL)\ntarget current { base \(server.baseURL); path /mine; query latitude longitude }\nweather current Suwon"
            let result = try await WSHProcess.run(["-c", script])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(server.hits("/mine") == 1)
            #expect(server.hits("/v1/search") == 1)
        }
    }

    @Test func echoJsonAndOff() async throws {
        let result = try await WSHProcess.run(["-c", "set counter-delay 1ms\nset echo json\ncounter increase\nset echo off\ncounter increase\nstate counter"])
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            #"{"counter":{"value":0,"loading":true}}"#, #"{"counter":{"value":1,"loading":true}}"#, #"{"counter":{"value":1,"loading":false}}"#,
            "counter | value=2 loading=false",
        ])
    }
}
