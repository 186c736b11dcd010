import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenSwiftData
import SampleTrips
import StoreServer
import Testing

/// The browser is behind the server's tokens: a login form trades one for a Secure, HttpOnly,
/// SameSite=Strict session cookie, and every form needs the cookie and its CSRF token.
@Suite struct BrowserLoginTests {
    @Test func pagesRedirectToTheLoginFormAndBackWithoutASession() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let page = try await client.execute(uri: "/browse/entity/Trip?sort=name", method: .get)
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/browse/login?next=%2Fbrowse%2Fentity%2FTrip%3Fsort%3Dname")
            let form = try await client.execute(uri: "/browse/login?next=%2Fbrowse%2Fentity%2FTrip%3Fsort%3Dname", method: .get)
            #expect(form.status == .ok)
            #expect(form.text.contains(#"<input type="hidden" name="next" value="/browse/entity/Trip?sort=name">"#))
            #expect(form.text.contains(#"<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>"#))
            let nonce = try #require(setCookie("osd_login", in: form))
            #expect(form.headers[values: .setCookie] == ["osd_login=\(nonce); Path=/browse; Max-Age=600; Secure; HttpOnly; SameSite=Strict"])
            // The host app's own routes are untouched.
            #expect(try await client.execute(uri: "/", method: .get).text == "the host app's own page")
        }
    }

    @Test func theRightTokenLogsInWithAStrictSecureCookie() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let form = try await client.execute(uri: "/browse/login", method: .get)
            let nonce = try #require(setCookie("osd_login", in: form))
            let wrong = try await client.execute(uri: "/browse/login", method: .post, headers: [.cookie: "osd_login=\(nonce)", .contentType: formType],
                                                 body: ByteBuffer(string: "csrf=\(nonce)&next=%2Fbrowse%2F&token=guess"))
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("That token is not one this server accepts for reading; check the tokens the server was started with."))
            #expect(setCookie("osd_session", in: wrong) == nil)
            let right = try await client.execute(uri: "/browse/login", method: .post, headers: [.cookie: "osd_login=\(nonce)", .contentType: formType],
                                                 body: ByteBuffer(string: "csrf=\(nonce)&next=%2Fbrowse%2Fentity%2FTrip&token=\(browserToken)"))
            #expect(right.status == .seeOther)
            #expect(right.headers[.location] == "/browse/entity/Trip?retry=1")
            let session = try #require(setCookie("osd_session", in: right))
            #expect(right.headers[values: .setCookie].contains("osd_session=\(session); Path=/browse; Max-Age=43200; Secure; HttpOnly; SameSite=Strict"))
            let marked = try await client.execute(uri: "/browse/entity/Trip?retry=1", method: .get, headers: [.cookie: "osd_session=\(session)"])
            #expect(marked.status == .seeOther)
            #expect(marked.headers[.location] == "/browse/entity/Trip")
            let page = try await client.execute(uri: "/browse/entity/Trip", method: .get, headers: [.cookie: "osd_session=\(session)"])
            #expect(page.status == .ok)
            #expect(page.text.contains("<h1>Trip</h1>"))
        }
    }

    @Test func aLoginWhoseCookieWasNotKeptExplainsTheSecureCookie() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let page = try await client.execute(uri: "/browse/entity/Trip?retry=1", method: .get)
            #expect(page.headers[.location] == "/browse/login?next=%2Fbrowse%2Fentity%2FTrip&retry=1")
            let form = try await client.execute(uri: "/browse/login?next=%2Fbrowse%2Fentity%2FTrip&retry=1", method: .get)
            #expect(form.text.contains("It is a Secure cookie, so browse over HTTPS, or from localhost or 127.0.0.1."))
        }
    }

    @Test func aLoginWithoutTheFormsNonceIsRefused() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let forged = try await client.execute(uri: "/browse/login", method: .post, headers: [.contentType: formType],
                                                  body: ByteBuffer(string: "csrf=abc&token=\(browserToken)"))
            #expect(forged.status == .forbidden)
            #expect(forged.text.contains("The login form&#39;s CSRF token is missing or out of date."))
            #expect(setCookie("osd_session", in: forged) == nil)
        }
    }

    @Test func formsWithoutTheCookieOrTheCSRFTokenAreRefused() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try harness.seed { $0.insert(Trip(name: "Kept", destination: "Oslo", startDate: .now, endDate: .now)) }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let edit = "/browse/model/Trip/1/edit/name"
            let noCookie = try await client.execute(uri: edit, method: .post, headers: [.contentType: formType], body: ByteBuffer(string: "value=Gone"))
            #expect(noCookie.status == .unauthorized)
            #expect(noCookie.text.contains("Log in before sending forms: this request carries no valid session cookie."))
            let noToken = try await user.post(edit, [("value", "Gone")])
            #expect(noToken.status == .forbidden)
            #expect(noToken.text.contains("The form&#39;s CSRF token is missing or out of date."))
            let wrongToken = try await user.post(edit, [("csrf", "AAAA"), ("value", "Gone")])
            #expect(wrongToken.status == .forbidden)
            let otherSession = try await LoggedInClient.logIn(client)
            let stolen = try #require(csrfToken(in: try await otherSession.get(edit).text))
            #expect(try await user.post(edit, [("csrf", stolen), ("value", "Gone")]).status == .forbidden)
            let names = try ModelContext(harness.container).fetch(FetchDescriptor<Trip>()).map(\.name)
            #expect(names == ["Kept"])
        }
    }

    @Test func aTokenWithoutTheAdminScopeBrowsesReadOnlyInEditMode() async throws {
        let harness = try BrowserHarness(tokens: [browserToken: [.read, .write, .admin], "app-token": [.read, .write], "writer": [.write]])
        defer { harness.removeStore() }
        try harness.seed { $0.insert(Trip(name: "Kept", destination: "Oslo", startDate: .now, endDate: .now)) }
        try await harness.test { client in
            let app = try await LoggedInClient.logIn(client, token: "app-token")
            let page = try await app.get("/browse/model/Trip/1")
            #expect(page.text.contains(#"<p class="mode">Read-only token</p>"#))
            #expect(!page.main.contains("/edit/"))
            let refused = try await app.post("/browse/model/Trip/1/edit/name", [("value", "Gone")], formOn: "/browse/model/Trip/1")
            #expect(refused.status == .forbidden)
            #expect(refused.main.contains("The token you logged in with lacks the admin scope, which editing in the browser needs; log in with an admin token (--admin-token) to edit."))
            let form = try await client.execute(uri: "/browse/login", method: .get)
            let nonce = try #require(setCookie("osd_login", in: form))
            let writer = try await client.execute(uri: "/browse/login", method: .post, headers: [.cookie: "osd_login=\(nonce)", .contentType: formType],
                                                  body: ByteBuffer(string: "csrf=\(nonce)&token=writer"))
            #expect(writer.status == .unauthorized)
            #expect(setCookie("osd_session", in: writer) == nil)
        }
    }

    @Test func loggingOutEndsTheCookie() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let out = try await user.post("/browse/logout", [], formOn: "/browse/")
            #expect(out.status == .seeOther)
            #expect(out.headers[.location] == "/browse/login")
            #expect(out.headers[values: .setCookie] == ["osd_session=; Path=/browse; Max-Age=0; Secure; HttpOnly; SameSite=Strict"])
        }
    }

    @Test func everyAnswerForbidsFramingInlineScriptsAndOtherOrigins() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            for uri in ["/browse/login", "/browse/", "/browse/nothing-here"] {
                let answer = try await client.execute(uri: uri, method: .get)
                #expect(answer.headers[.contentSecurityPolicy] == "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
                #expect(answer.headers[.xContentTypeOptions] == "nosniff")
            }
            let style = try await client.execute(uri: "/browse/assets/style.css", method: .get)
            #expect(style.status == .ok)
            #expect(style.headers[.contentType] == "text/css; charset=utf-8")
            let script = try await client.execute(uri: "/browse/assets/browser.js", method: .get)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("new EventSource(main.dataset.live)"))
            #expect(try await client.execute(uri: "/browse/assets/missing.js", method: .get).status == .notFound)
        }
    }
}
