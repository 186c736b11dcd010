import Foundation
import HTTPTypes

/// The login form, which trades one of the server's tokens for a session cookie, and the logout.
extension BrowserCore {
    static let cookieHint = "Your browser did not send the session cookie back. It is a Secure cookie, so browse over HTTPS, or from localhost or 127.0.0.1."

    func loginForm(_ request: BrowserRequest, hint: String?, status: HTTPResponse.Status = .ok) throws -> StoreBrowserResponse {
        let nonce = SessionSigner.randomToken()
        let view = LoginView(chrome: Chrome(title: "Log in", prefix: request.prefix), action: request.path("login"),
                             csrf: nonce, next: safeNext(request.query["next"] ?? request.form["next"], request: request), hint: hint)
        var response = try render(view, template: "login", status: status)
        response.head.headerFields.append(HTTPField(name: .setCookie, value: SessionSigner.setCookie(
            name: SessionSigner.loginCookie, value: nonce, path: request.prefix, maxAge: 600)))
        return response
    }

    func login(_ request: BrowserRequest) async throws -> StoreBrowserResponse {
        // A double-submitted nonce: another site can neither read the cookie nor send it (SameSite).
        guard let sent = request.form["csrf"], let expected = request.cookies[SessionSigner.loginCookie],
              SessionSigner.constantTimeEqual(Array(sent.utf8), Array(expected.utf8)) else {
            throw BrowserError.forbidden("The login form's CSRF token is missing or out of date. Reload the login page and log in again.")
        }
        guard let token = request.form["token"], let match = SessionSigner.access(of: token, tokens: server.accessByToken) else {
            return try loginForm(request, hint: "That token is not one this server accepts for reading; check the tokens the server was started with.",
                                 status: .unauthorized)
        }
        let next = safeNext(request.form["next"], request: request)
        var response = StoreBrowserResponse.redirect(to: Links.with(next, [("retry", "1")]))
        let lifetime = configuration.sessionLifetime.components.seconds
        response.head.headerFields.append(HTTPField(name: .setCookie, value: SessionSigner.setCookie(
            name: SessionSigner.sessionCookie, value: signer.issue(for: match.token), path: request.prefix, maxAge: lifetime)))
        response.head.headerFields.append(HTTPField(name: .setCookie, value: SessionSigner.setCookie(
            name: SessionSigner.loginCookie, value: "", path: request.prefix, maxAge: 0)))
        return response
    }

    func logout(_ request: BrowserRequest) -> StoreBrowserResponse {
        var response = StoreBrowserResponse.redirect(to: request.path("login"))
        response.head.headerFields.append(HTTPField(name: .setCookie, value: SessionSigner.setCookie(
            name: SessionSigner.sessionCookie, value: "", path: request.prefix, maxAge: 0)))
        return response
    }

    /// To the login form, which comes back here after; a redirect that itself followed a login
    /// (`retry`) means the cookie was not kept, which the form then explains.
    func loginRedirect(_ request: BrowserRequest) -> StoreBrowserResponse {
        let retried = request.query["retry"] != nil
        return .redirect(to: Links.with(request.path("login"), [("next", unmarkedURL(request)), ("retry", retried ? "1" : nil)]))
    }

    /// The page without the `retry` mark a login put on it, once the cookie came back.
    func withoutRetryMark(_ request: BrowserRequest) -> StoreBrowserResponse {
        .redirect(to: unmarkedURL(request))
    }

    /// The request's own URL, without the `retry` mark.
    private func unmarkedURL(_ request: BrowserRequest) -> String {
        var query = request.query
        query["retry"] = nil
        return Links.with(Links.path(prefix: request.prefix, request.components), query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// A page of this browser to go to after logging in; anything else (another site, a path
    /// outside the browser) goes to the schema.
    private func safeNext(_ next: String?, request: BrowserRequest) -> String {
        let home = request.path()
        guard let next, next.hasPrefix(home), !next.contains("//"), !next.contains("\\") else { return home }
        return next
    }
}
