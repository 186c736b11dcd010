import Foundation
import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// Binds the renderer's ``QueryValue`` arguments exactly as ``SQLiteValueCoding`` stores the same
/// kinds, and registers the SQL functions the renderer's SQL calls.
enum SQLiteQueryBinding {
    static func databaseValue(_ value: QueryValue) throws -> DatabaseValue {
        switch value {
        case .null: return .null
        case .bool(let bool): return (bool ? 1 : 0 as Int64).databaseValue
        case .integer(let integer): return integer.databaseValue
        // A `-0.0` is compared as the `0.0` it equals; the stored TEXT of one is cast to that.
        case .double(let double): return double == 0 ? 0.0.databaseValue : try SQLiteValueCoding.databaseValue(double)
        case .string(let string): return string.nfc.databaseValue
        case .date(let date): return date.timeIntervalSinceReferenceDate.databaseValue
        case .uuid(let uuid): return uuid.canonicalString.databaseValue
        case .data(let data): return data.databaseValue
        case .array: return try json(value).databaseValue
        case .identifier:
            // The renderer maps identifiers to keys through the store's `primaryKey` closure.
            throw QueryTranslationError.unsupported("An identifier argument without a stored key is not bound")
        }
    }

    /// An `.array` argument as JSON whose elements read back through `json_each` as stored
    /// columns of the same kind do: the form `SQLiteValueCoding.json` gives collection attributes.
    private static func json(_ value: QueryValue) throws -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .integer(let integer): return String(integer)
        case .double(let double):
            guard double.isFinite else {
                throw QueryTranslationError.unsupported("A non-finite number inside a list is not bound")
            }
            return "\(double)"
        case .string(let string): return try SQLiteValueCoding.json(string).nfc
        case .date(let date): return "\(date.timeIntervalSinceReferenceDate)"
        case .uuid(let uuid): return "\"\(uuid.uuidString)\""
        case .data(let data): return "\"\(data.base64EncodedString())\""
        case .array(let elements): return "[\(try elements.map(json).joined(separator: ","))]"
        case .identifier:
            throw QueryTranslationError.unsupported("An identifier argument without a stored key is not bound")
        }
    }

    /// A SQLite value as the renderer's functions expect it.
    static func queryValue(_ value: DatabaseValue) -> QueryValue {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .string(let string): .string(string)
        case .blob(let data): .data(data)
        }
    }

    /// The function a column that has held text not in NFC is compared through
    /// (``KeyPathResolver``): the text, or JSON text, in NFC; other values as they are.
    static let nfcFunction = "osd_nfc"

    /// Adds ``SQLiteQueryRenderer/functions`` and ``nfcFunction`` to a connection.
    static func registerFunctions(in db: Database) {
        db.add(function: DatabaseFunction(nfcFunction, argumentCount: 1, pure: true) { arguments in
            guard case .string(let text) = arguments[0].storage, !text.isNFC else { return arguments[0] }
            return text.precomposedStringWithCanonicalMapping
        })
        for function in SQLiteQueryRenderer.functions {
            let evaluate = function.evaluate
            db.add(function: DatabaseFunction(function.name, argumentCount: function.argumentCount, pure: function.isDeterministic) { arguments in
                try databaseValue(try evaluate(arguments.map(queryValue)))
            })
        }
    }
}
