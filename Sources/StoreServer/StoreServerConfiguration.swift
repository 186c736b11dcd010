import Foundation

/// How a ``StoreServer`` listens and what it accepts.
///
/// ```swift
/// let configuration = try StoreServerConfiguration(host: "127.0.0.1", port: 8080,
///                                                  tokens: StoreServerConfiguration.tokens(fromEnvironment: "OPENSWIFTDATA_TOKENS"))
/// ```
///
/// Each token has scopes (``Scope``): tokens given as a set may read and save; batch deletes and
/// deleting history need a token granted ``Scope/admin`` as well.
public struct StoreServerConfiguration: Sendable {
    /// The address to listen on: `127.0.0.1` (the default) for this machine only, `0.0.0.0` for every
    /// interface.
    public var host: String
    /// 0 picks a free port (tests); ``StoreServer/run(onServerRunning:)`` reports the one bound.
    public var port: Int
    /// The bearer tokens a request may carry, each with what it may do. Never empty: a server
    /// without tokens would serve anyone who can reach its port.
    public var tokens: [String: Set<Scope>]
    /// The largest request body accepted, in bytes (4 MiB by default); larger ones get 413. A
    /// save holds its body while decoding it, then the decoded values and the store's copies of
    /// them while it writes: about three times its body at its peak, all freed once it is answered.
    /// Raise it for models that carry large `Data` or text.
    public var maxBodySize: Int
    /// The deepest JSON nesting accepted (objects and arrays); deeper bodies get 400 before decoding.
    public var maxJSONDepth: Int
    /// The longest the store may take to answer a request; slower ones get 503.
    public var requestTimeLimit: Duration
    /// The longest a request's body may take to arrive after its headers; a client that sends it
    /// more slowly (a byte now and then keeps a connection from being idle) gets 408 and is
    /// disconnected.
    public var bodyTimeLimit: Duration
    /// How long a connection may stay idle before the server closes it.
    public var idleTimeout: Duration
    /// The most values one list of a query may hold (an `IN` list); longer ones get 400.
    public var maxQueryListLength: Int
    /// The most expressions and values (JSON objects) one query may hold; larger ones get 400.
    /// With ``maxQueryListLength`` it bounds the work a query costs, so one client's huge query
    /// cannot hold up the others past the time limit.
    public var maxQueryNodes: Int
    /// The certificate and key to serve HTTPS with; nil (the default) serves plain HTTP, for
    /// loopback or behind a TLS proxy. Clients send their bearer token with every request, so a
    /// server other machines reach needs one or the other.
    public var tls: TLS?
    /// The origins (`https://app.example.com`, exactly as browsers send them) whose web pages may
    /// call the API (CORS): their preflights are answered and their pages may read the answers.
    /// Empty (the default) sends no CORS headers, so browsers keep pages of other sites from
    /// reading the answers. Applies to ``StoreServer/application(onServerRunning:)``.
    public var allowedOrigins: [String] = []

    /// Creates a configuration whose tokens may each read and save (``Scope/standard``); throws
    /// ``StoreServerError`` `.invalidConfiguration` without a token or with a limit that is not
    /// positive.
    public init(host: String = "127.0.0.1", port: Int = 8080, tokens: Set<String>, maxBodySize: Int = 4 << 20,
                maxJSONDepth: Int = 64, requestTimeLimit: Duration = .seconds(30), idleTimeout: Duration = .seconds(60),
                bodyTimeLimit: Duration = .seconds(60), maxQueryListLength: Int = 10_000, maxQueryNodes: Int = 50_000) throws {
        try self.init(host: host, port: port, tokens: Dictionary(uniqueKeysWithValues: tokens.map { ($0, Scope.standard) }),
                      maxBodySize: maxBodySize, maxJSONDepth: maxJSONDepth, requestTimeLimit: requestTimeLimit, idleTimeout: idleTimeout,
                      bodyTimeLimit: bodyTimeLimit, maxQueryListLength: maxQueryListLength, maxQueryNodes: maxQueryNodes)
    }

    /// Creates a configuration with each token's scopes; throws ``StoreServerError``
    /// `.invalidConfiguration` without a token, for a token without a scope, or with a limit
    /// that is not positive.
    public init(host: String = "127.0.0.1", port: Int = 8080, tokens: [String: Set<Scope>], maxBodySize: Int = 4 << 20,
                maxJSONDepth: Int = 64, requestTimeLimit: Duration = .seconds(30), idleTimeout: Duration = .seconds(60),
                bodyTimeLimit: Duration = .seconds(60), maxQueryListLength: Int = 10_000, maxQueryNodes: Int = 50_000) throws {
        guard !tokens.isEmpty, !tokens.keys.contains(where: \.isEmpty) else {
            throw StoreServerError(.invalidConfiguration, "A store server needs at least one non-empty bearer token; pass tokens (e.g. from the environment with StoreServerConfiguration.tokens(fromEnvironment:)).")
        }
        guard !tokens.values.contains(where: \.isEmpty) else {
            throw StoreServerError(.invalidConfiguration, "Every bearer token needs at least one scope (read, write or admin); remove a token that should do nothing.")
        }
        guard maxBodySize > 0, maxJSONDepth > 0, requestTimeLimit > .zero, idleTimeout > .zero, bodyTimeLimit > .zero, maxQueryListLength > 0, maxQueryNodes > 0 else {
            throw StoreServerError(.invalidConfiguration, "maxBodySize, maxJSONDepth, requestTimeLimit, idleTimeout, bodyTimeLimit, maxQueryListLength and maxQueryNodes must be positive.")
        }
        self.host = host
        self.port = port
        self.tokens = tokens
        self.maxBodySize = maxBodySize
        self.maxJSONDepth = maxJSONDepth
        self.requestTimeLimit = requestTimeLimit
        self.idleTimeout = idleTimeout
        self.bodyTimeLimit = bodyTimeLimit
        self.maxQueryListLength = maxQueryListLength
        self.maxQueryNodes = maxQueryNodes
    }

    /// The comma-separated tokens in an environment variable (empty when it is unset).
    public static func tokens(fromEnvironment name: String) -> Set<String> {
        let value = ProcessInfo.processInfo.environment[name] ?? ""
        return Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
}
