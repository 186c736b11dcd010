/// A bookmark in a store's history: `Codable`, so an app can keep it between launches, and
/// `Comparable`, so a predicate can select the transactions after it (`$0.token > saved`).
public protocol HistoryToken: Comparable, Decodable, Encodable, Hashable, Identifiable, Sendable {
    /// The type of the token's value.
    associatedtype TokenType: Decodable, Encodable, Hashable, Sendable
    /// The token's value, which identifies the store state it marks.
    var tokenValue: TokenType? { get }
}

/// The history token of `DefaultStore` and ``InMemoryStore``: a store identifier and the
/// number of the last transaction it covers.
///
/// Its `tokenValue` (and its JSON form) is `[storeIdentifier: transactionNumber]`, one entry.
/// Tokens of one store order by their transaction numbers. A store refuses a token of another
/// store (``PersistenceError`` `.foreignHistoryToken`), and one from before history it deleted
/// (``SwiftDataError/historyTokenExpired``).
public struct DefaultHistoryToken: HistoryToken, Codable {
    /// One entry: the store identifier and the transaction number.
    public typealias TokenType = [String: Int64]

    /// The identifier of the store whose history this token marks.
    public let storeIdentifier: String
    /// The number of the last transaction the token covers.
    package let transactionIdentifier: Int64

    package init(storeIdentifier: String, transactionIdentifier: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionIdentifier = transactionIdentifier
    }

    /// The transaction number: unique among one store's tokens.
    public var id: Int { Int(truncatingIfNeeded: transactionIdentifier) }

    /// The store identifier and transaction number, as one dictionary entry.
    public var tokenValue: TokenType? { [storeIdentifier: transactionIdentifier] }

    /// By store identifier, then transaction number; only tokens of one store compare usefully.
    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool {
        (lhs.storeIdentifier, lhs.transactionIdentifier) < (rhs.storeIdentifier, rhs.transactionIdentifier)
    }

    /// Reads a token from its JSON form, `{"<storeIdentifier>": <transactionNumber>}`.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(TokenType.self)
        guard value.count == 1, let (store, transaction) = value.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "A DefaultHistoryToken is one store identifier and its transaction number ({\"<store>\": <number>}); this one has \(value.count) entries."))
        }
        self.init(storeIdentifier: store, transactionIdentifier: transaction)
    }

    /// Writes the token as `{"<storeIdentifier>": <transactionNumber>}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode([storeIdentifier: transactionIdentifier])
    }
}
