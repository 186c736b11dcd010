import Foundation
import OpenSwiftDataCore

/// A SQL function that the SQL ``SQLiteQueryRenderer`` writes calls, with Swift's semantics.
///
/// Register each on every connection, converting SQLite values to ``QueryValue`` (TEXT as
/// `.string`, INTEGER as `.integer`, NULL as `.null`) and the result back (`.bool` as 0/1):
///
/// ```swift
/// for function in SQLiteQueryRenderer.functions {
///     db.add(function: DatabaseFunction(function.name, argumentCount: Int32(function.argumentCount),
///                                       pure: function.isDeterministic) { arguments in
///         try function.evaluate(arguments.map(QueryValue.init)).databaseValue
///     })
/// }
/// ```
public struct SQLiteQueryFunction: Sendable {
    /// The name the rendered SQL calls the function by.
    public let name: String
    /// How many arguments the function takes.
    public let argumentCount: Int
    /// False for functions whose result depends on the process's current locale.
    public let isDeterministic: Bool
    /// Returns `.null` when a string argument is NULL.
    public let evaluate: @Sendable ([QueryValue]) throws -> QueryValue
}

extension SQLiteQueryRenderer {
    /// `osd_contains(text, text, options)`, `osd_starts_with(text, text)`,
    /// `osd_compare(text, text, options)` (-1, 0 or 1) and `osd_character_count(text)`;
    /// `options` is a ``QueryStringOptions`` raw value.
    public static let functions: [SQLiteQueryFunction] = [
        SQLiteQueryFunction(name: "osd_contains", argumentCount: 3, isDeterministic: false) { arguments in
            try withStrings(arguments, count: 2) { strings, options in
                .bool(QueryStringSemantics.contains(strings[0], strings[1], options: options))
            }
        },
        SQLiteQueryFunction(name: "osd_starts_with", argumentCount: 2, isDeterministic: true) { arguments in
            try withStrings(arguments, count: 2) { strings, _ in
                .bool(QueryStringSemantics.starts(strings[0], with: strings[1]))
            }
        },
        SQLiteQueryFunction(name: "osd_compare", argumentCount: 3, isDeterministic: false) { arguments in
            try withStrings(arguments, count: 2) { strings, options in
                .integer(Int64(QueryStringSemantics.compare(strings[0], strings[1], options: options).rawValue))
            }
        },
        SQLiteQueryFunction(name: "osd_character_count", argumentCount: 1, isDeterministic: true) { arguments in
            try withStrings(arguments, count: 1) { strings, _ in .integer(Int64(strings[0].count)) }
        },
    ]

    /// Calls `body` with the first `count` arguments as strings and the next, if any, as options;
    /// NULL when any of those strings is NULL, as SQL functions conventionally are.
    private static func withStrings(_ arguments: [QueryValue], count: Int, _ body: ([String], QueryStringOptions) -> QueryValue) throws -> QueryValue {
        var strings: [String] = []
        for argument in arguments.prefix(count) {
            switch argument {
            case .null: return .null
            case .string(let string): strings.append(string)
            default: throw QueryEvaluationError.typeMismatch("text", argument)
            }
        }
        guard strings.count == count else {
            throw QueryEvaluationError(.typeMismatch, "Expected \(count) text arguments")
        }
        var options: QueryStringOptions = []
        if let last = arguments.dropFirst(count).first {
            guard case .integer(let raw) = last else { throw QueryEvaluationError.typeMismatch("an options integer", last) }
            options = QueryStringOptions(rawValue: Int(raw))
        }
        return body(strings, options)
    }
}
