import Foundation

/// A value bound to a statement's placeholder, in the forms every SQL database takes. The SQL
/// engine makes them from model values (``SQLValueCoding``) and query constants; a connection
/// binds each as its database keeps that kind.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    /// A dialect with a boolean type binds it as one; others bind the column's stored form.
    case bool(Bool)
    case uuid(UUID)
    /// A list bound as one value (``SQLDialect/listMembership(_:_:)``): a JSON array for SQLite,
    /// an array for PostgreSQL.
    case integers([Int64])
    case texts([String])

    /// The value's text, for a key list written as JSON.
    package static func jsonArray(_ keys: [Int64]) -> String {
        "[" + keys.map(String.init).joined(separator: ",") + "]"
    }

    package var isNull: Bool {
        if case .null = self { true } else { false }
    }
}
