import Crypto
import Foundation
import StoreServer

/// A logged-in browser: the session's nonce, what its token grants, and the key its cookie and
/// CSRF tokens are signed with.
struct BrowserSession: Sendable {
    let nonce: String
    let access: ServerBrowsing.Access
    let key: SymmetricKey

    /// The token every form of this session carries; a form without it is refused.
    var csrfToken: String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data("csrf|\(nonce)".utf8), using: key)))
    }

    /// Whether `candidate` is this session's CSRF token, compared in constant time.
    func accepts(csrfToken candidate: String?) -> Bool {
        guard let candidate, let code = Base64URL.decode(candidate) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data("csrf|\(nonce)".utf8), using: key)
    }
}

/// Sessions as signed cookies, `<expiry>.<nonce>.<signature>`, signed with a key derived from the
/// token that logged in. The server keeps no session state: a session outlives a restart, holds on
/// every instance that shares the tokens, and ends when its token is no longer accepted.
struct SessionSigner: Sendable {
    static let sessionCookie = "osd_session"
    /// The login form's CSRF token (a random value the form repeats), set when the form is shown.
    static let loginCookie = "osd_login"

    let lifetime: Duration

    static func key(for token: String) -> SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Data("openswiftdata-browser-session\u{0}\(token)".utf8)))
    }

    /// A new session cookie's value for a token the server accepts.
    func issue(for token: String, now: Date = Date()) -> String {
        let expiry = Int64(now.timeIntervalSince1970) + lifetime.components.seconds
        let nonce = Self.randomToken()
        return "\(expiry).\(nonce).\(signature(expiry: expiry, nonce: nonce, key: Self.key(for: token)))"
    }

    /// The session a cookie value stands for: unexpired, and signed with a key of a token the
    /// server accepts now. Every token is tried, so the time taken tells nothing of which matched.
    func session(from value: String?, tokens: [(token: String, access: ServerBrowsing.Access)], now: Date = Date()) -> BrowserSession? {
        guard let value else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let expiry = Int64(parts[0]), expiry > Int64(now.timeIntervalSince1970),
              let code = Base64URL.decode(parts[2]) else { return nil }
        let message = Data("session|\(expiry)|\(parts[1])".utf8)
        var found: BrowserSession?
        for (token, access) in tokens {
            let key = Self.key(for: token)
            if HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: key), found == nil {
                found = BrowserSession(nonce: parts[1], access: access, key: key)
            }
        }
        return found
    }

    /// What a token typed into the login form grants; nil for one the server does not accept.
    /// Digests are compared, in constant time and against every token.
    static func access(of candidate: String, tokens: [(token: String, access: ServerBrowsing.Access)]) -> (token: String, access: ServerBrowsing.Access)? {
        let digest = Array(SHA256.hash(data: Data(candidate.utf8)))
        var found: (token: String, access: ServerBrowsing.Access)?
        for entry in tokens where constantTimeEqual(Array(SHA256.hash(data: Data(entry.token.utf8))), digest) && found == nil {
            found = entry
        }
        return found
    }

    /// Equal-length byte arrays compared without stopping at the first difference.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    private func signature(expiry: Int64, nonce: String, key: SymmetricKey) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data("session|\(expiry)|\(nonce)".utf8), using: key)))
    }

    /// 128 random bits, URL-safe.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode(Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// A `Set-Cookie` value: only sent back over HTTPS (or to localhost), never readable by
    /// scripts, never sent with a request another site starts.
    static func setCookie(name: String, value: String, path: String, maxAge: Int64) -> String {
        "\(name)=\(value); Path=\(path.isEmpty ? "/" : path); Max-Age=\(maxAge); Secure; HttpOnly; SameSite=Strict"
    }
}

/// Base64 with `-` and `_` and no padding, safe in cookies, forms and URLs.
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
