import Foundation
import OpenSwiftData

/// Body of `history` and `history/delete`: the part of a `HistoryDescriptor` a store runs. The
/// client runs the rest of the predicate, and sorts and limits itself when the server cannot.
///
/// ```json
/// {"conditions": [{"transaction": {"comparison": "greaterThan", "number": 12}}, {"author": {"equal": false, "author": "app"}},
///                 {"changedEntities": ["Trip"]}],
///  "tokens": [{"trips": 12}], "newestFirst": false, "limit": 100}
/// ```
package struct HistoryRequest: Codable, Sendable {
    /// One condition: exactly one of its members is set.
    package struct Condition: Codable, Sendable {
        package struct TransactionTest: Codable, Sendable {
            package var comparison: Comparison
            package var number: Int64
        }

        package enum Comparison: String, Codable, Sendable {
            case equal, notEqual, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
        }

        package struct AuthorTest: Codable, Sendable {
            package var equal: Bool
            package var author: String?
        }

        package var transaction: TransactionTest?
        package var author: AuthorTest?
        package var changedEntities: [String]?
    }

    package var conditions: [Condition]
    /// Every token the predicate holds: each must be of the server's store and not expired.
    package var tokens: [DefaultHistoryToken]
    package var newestFirst: Bool
    package var limit: Int?

    package init(_ query: HistoryRecordQuery) {
        conditions = query.filter.conditions.map(Condition.init)
        tokens = query.filter.tokens
        newestFirst = query.newestFirst
        limit = query.limit
    }

    /// The query the request stands for; throws `DecodingError` for a condition that is not
    /// exactly one test, or a negative limit.
    package func query() throws -> HistoryRecordQuery {
        if let limit, limit < 0 {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "'limit' must be 0 or more (0 for none)."))
        }
        let conditions = try conditions.map { try $0.condition() }
        return HistoryRecordQuery(filter: HistoryFilter(conditions: conditions, tokens: tokens), newestFirst: newestFirst,
                                  limit: limit == 0 ? nil : limit)
    }
}

extension HistoryRequest.Condition {
    init(_ condition: HistoryFilter.Condition) {
        switch condition {
        case .transaction(let comparison, let number):
            let wire: Comparison = switch comparison {
            case .equal: .equal
            case .notEqual: .notEqual
            case .less: .lessThan
            case .lessOrEqual: .lessThanOrEqual
            case .greater: .greaterThan
            case .greaterOrEqual: .greaterThanOrEqual
            }
            transaction = TransactionTest(comparison: wire, number: number)
        case .author(let equal, let author):
            self.author = AuthorTest(equal: equal, author: author)
        case .changedEntity(let names):
            changedEntities = names.sorted()
        }
    }

    func condition() throws -> HistoryFilter.Condition {
        switch (transaction, author, changedEntities) {
        case (let test?, nil, nil):
            let comparison: HistoryFilter.Comparison = switch test.comparison {
            case .equal: .equal
            case .notEqual: .notEqual
            case .lessThan: .less
            case .lessThanOrEqual: .lessOrEqual
            case .greaterThan: .greater
            case .greaterThanOrEqual: .greaterOrEqual
            }
            return .transaction(comparison, test.number)
        case (nil, let test?, nil):
            return .author(equal: test.equal, test.author)
        case (nil, nil, let names?):
            return .changedEntity(in: Set(names))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription:
                "Each history condition holds exactly one of 'transaction', 'author' and 'changedEntities'."))
        }
    }
}

/// Body of the answer to `history`: the store's identifier, then its transactions with their
/// changes by entity and property name (``HistoryRecord``'s JSON form); a deleted model's
/// tombstone holds its kept values in the form snapshots use.
package struct HistoryResponse: Codable, Sendable {
    package var storeIdentifier: String
    package var transactions: [HistoryRecord]

    package init(storeIdentifier: String, records: [HistoryRecord]) {
        self.storeIdentifier = storeIdentifier
        transactions = records
    }

    /// Decodes an answer to `history`, tombstones typed by this process's model types.
    package static func decode(from data: Data) throws -> HistoryResponse {
        try WireCoding.decoder().decodeChecked(HistoryResponse.self, from: data)
    }
}

/// One event of `history/events`: the token of the store's newest transaction.
package struct HistoryEvent: Codable, Sendable {
    package var token: DefaultHistoryToken?

    package init(token: DefaultHistoryToken?) {
        self.token = token
    }
}
