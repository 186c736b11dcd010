import Foundation
@testable import StoreBrowser
import StoreServer
import Testing

/// Session cookies are signed with a key of the token that logged in: they hold until they
/// expire or the token is no longer accepted, and each session's forms carry its own CSRF token.
@Suite struct SessionSignerTests {
    let signer = SessionSigner(lifetime: .seconds(3600))
    let tokens: [(token: String, access: ServerBrowsing.Access)] = [("alpha", .read), ("beta", .edit)]
    let now = Date(timeIntervalSince1970: 2_000_000_000)

    @Test func aCookieStandsForItsTokensSessionUntilItExpires() throws {
        let cookie = signer.issue(for: "beta", now: now)
        let session = try #require(signer.session(from: cookie, tokens: tokens, now: now.addingTimeInterval(3599)))
        #expect(session.access == .edit)
        #expect(cookie.hasPrefix("2000003600."))
        #expect(signer.session(from: cookie, tokens: tokens, now: now.addingTimeInterval(3600)) == nil)
    }

    @Test func aTamperedCookieOrOneOfARemovedTokenIsRefused() {
        let cookie = signer.issue(for: "alpha", now: now)
        var parts = cookie.split(separator: ".").map(String.init)
        #expect(signer.session(from: cookie, tokens: [("beta", .edit)], now: now) == nil)
        parts[0] = String(Int(parts[0])! + 1000)
        #expect(signer.session(from: parts.joined(separator: "."), tokens: tokens, now: now) == nil)
        for broken in ["", "x", "1.2", "a.b.c", cookie + "x", cookie.replacingOccurrences(of: ".", with: "")] {
            #expect(signer.session(from: broken, tokens: tokens, now: now) == nil)
        }
    }

    @Test func csrfTokensBelongToTheirSession() throws {
        let first = try #require(signer.session(from: signer.issue(for: "beta", now: now), tokens: tokens, now: now))
        let second = try #require(signer.session(from: signer.issue(for: "beta", now: now), tokens: tokens, now: now))
        #expect(first.accepts(csrfToken: first.csrfToken))
        #expect(!first.accepts(csrfToken: second.csrfToken))
        #expect(!first.accepts(csrfToken: nil))
        #expect(!first.accepts(csrfToken: ""))
    }

    @Test func aLoginTokenIsLookedUpAmongEveryToken() {
        #expect(SessionSigner.access(of: "beta", tokens: tokens)?.access == .edit)
        #expect(SessionSigner.access(of: "alpha", tokens: tokens)?.access == .read)
        #expect(SessionSigner.access(of: "alph", tokens: tokens) == nil)
        #expect(SessionSigner.access(of: "", tokens: tokens) == nil)
    }

    @Test func cookiesAreSecureHttpOnlyAndStrict() {
        #expect(SessionSigner.setCookie(name: "osd_session", value: "v", path: "/browse", maxAge: 60)
            == "osd_session=v; Path=/browse; Max-Age=60; Secure; HttpOnly; SameSite=Strict")
        #expect(SessionSigner.setCookie(name: "osd_session", value: "v", path: "", maxAge: 0)
            == "osd_session=v; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict")
    }
}
