import Crypto
import Foundation
import Hummingbird

extension StoreServerConfiguration {
    /// What a bearer token may do. A request outside its token's scopes gets 403.
    ///
    /// ```swift
    /// let configuration = try StoreServerConfiguration(tokens: [
    ///     "app-token": [.read, .write],
    ///     "ops-token": [.read, .write, .admin],
    ///     "report-token": [.read],
    /// ])
    /// ```
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// Fetches, counts, identifiers, the schema, history and its events, and `/metrics`.
        case read
        /// Saves: inserting, updating and deleting the models a save names.
        case write
        /// What changes many models or the record at once: batch deletes, deleting history, and
        /// the data browser's edit mode.
        case admin

        /// The scopes a token given without any gets: reading and saving, as an app needs.
        public static let standard: Set<Scope> = [.read, .write]
    }
}

/// The configured tokens: finds a request's token and its scopes, comparing against every token
/// without stopping early, so timing tells nothing about them.
struct TokenBook: Sendable {
    private struct Entry: Sendable {
        var token: [UInt8]
        var scopes: Set<StoreServerConfiguration.Scope>
        /// A stable name for the token that does not reveal it: the first 16 hex digits of its
        /// SHA-256, for namespacing what a token leaves behind (its idempotency keys).
        var namespace: String
    }

    private let entries: [Entry]

    init(_ tokens: [String: Set<StoreServerConfiguration.Scope>]) {
        entries = tokens.map { token, scopes in
            let digest = SHA256.hash(data: Array(token.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
            return Entry(token: Array(token.utf8), scopes: scopes, namespace: digest)
        }
    }

    /// The token of `request` and what it may do; throws `.unauthorized` (401) for a missing,
    /// malformed or unknown token.
    func grant(of request: Request) throws -> (scopes: Set<StoreServerConfiguration.Scope>, namespace: String) {
        guard let header = request.headers[.authorization] else {
            throw StoreServerError(.unauthorized, "This server needs a bearer token: send 'Authorization: Bearer <token>'.")
        }
        // The scheme is case-insensitive (RFC 9110, 11.1): "bearer" and "BEARER" are "Bearer".
        let scheme = header.prefix { $0 != " " }
        let token = Array(header.dropFirst(scheme.count).drop { $0 == " " }.utf8)
        guard scheme.lowercased() == "bearer", let entry = entry(matching: token) else {
            throw StoreServerError(.unauthorized, "The bearer token is not one this server accepts; check the token the server was started with.")
        }
        return (entry.scopes, entry.namespace)
    }

    /// Throws `.unauthorized` without a known token, `.forbidden` (403) when its token lacks `scope`.
    func require(_ scope: StoreServerConfiguration.Scope, for request: Request) throws {
        let scopes = try grant(of: request).scopes
        guard scopes.contains(scope) else {
            let granted = StoreServerConfiguration.Scope.allCases.filter(scopes.contains).map(\.rawValue).joined(separator: ", ")
            throw StoreServerError(.forbidden, "This request needs a token with the \(scope.rawValue) scope; this one has \(granted.isEmpty ? "none" : granted). Ask the server's operator for a token that has it.")
        }
    }

    private func entry(matching candidate: [UInt8]) -> Entry? {
        var found: Entry?
        for entry in entries {
            let token = entry.token
            var difference = UInt8(token.count == candidate.count ? 0 : 1)
            for index in 0..<max(token.count, candidate.count) {
                let lhs = index < token.count ? token[index] : 0
                let rhs = index < candidate.count ? candidate[index] : 0
                difference |= lhs ^ rhs
            }
            if difference == 0 { found = entry }
        }
        return found
    }
}
