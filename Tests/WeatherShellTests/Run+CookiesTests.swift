import Foundation
import Testing
@testable import WeatherShell

/// The `cookies` command's list.
@Suite @ShellActor struct RunCookiesTests {
    /// A cookie that expired after it was stored is not listed, as `cookies save` leaves it out
    /// (it was listed with its past expiry). The jar is given the time the cookies came: no waiting.
    @Test func aCookieThatHasExpiredIsNotListed() async {
        let shell = ShellHarness()
        shell.run.session.cookieJar.store(setCookie: ["gone=1; Max-Age=60", "kept=2; Max-Age=3600", "lasting=3"],
                                          from: "http://example.test/", now: Date(timeIntervalSinceNow: -120))
        await shell.run("cookies")
        #expect(shell.stdout.contains("kept=2") && shell.stdout.contains("lasting=3"), "\(shell.stdout)")
        #expect(!shell.stdout.contains("gone"), "\(shell.stdout)")
        await shell.run("cookies clear\ncookies")
        #expect(shell.stdout.hasSuffix("(no cookies)\n"), "\(shell.stdout)")
    }
}
