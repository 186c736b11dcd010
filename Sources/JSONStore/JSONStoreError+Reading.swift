import Foundation
import OpenSwiftData

extension JSONStoreError {
    /// An ``Code/unreadableFile`` error that says where in the file reading stopped and what was
    /// expected there.
    static func unreadable(_ url: URL, _ error: any Error, bytes: Data) -> JSONStoreError {
        let advice = "Restore it from a backup, or fix it where the message says (the same bytes were read twice); until it can be read, the store refuses to save over it."
        let problem: String
        switch error {
        case let error as DecodingError:
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
               let syntax = JSONSyntaxScanner.firstError(in: bytes) {
                problem = "it is not valid JSON \(syntax.description)"
            } else {
                problem = describe(error)
            }
        case let duplicate as SnapshotArchive.DuplicateIdentifier:
            problem = "the snapshot at index \(duplicate.index) of the top-level array has the identifier of the one at index \(duplicate.earlierIndex) (\(duplicate.identifier)); each model must appear once"
        case let wrongEntity as WrongEntity:
            problem = "the snapshot at index \(wrongEntity.index) of the top-level array is of entity '\(wrongEntity.entityName)', which this store's schema does not have; expected one of \(wrongEntity.expected.joined(separator: ", "))"
        default:
            problem = "\(error)"
        }
        return JSONStoreError(.unreadableFile, "\(url.path) cannot be read: \(problem). \(advice)", url: url, underlying: error)
    }

    /// A snapshot of an entity the store's schema does not list.
    struct WrongEntity: Error {
        let index: Int
        let entityName: String
        let expected: [String]
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(position(context.codingPath)): expected \(type); \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(position(context.codingPath)): expected \(type), found null; \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(position(context.codingPath)): expected a key \"\(key.stringValue)\"; \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "\(position(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// "the snapshot at index 3 of the top-level array, key "startDate"" from a coding path.
    private static func position(_ path: [any CodingKey]) -> String {
        guard let first = path.first else { return "at the top level (expected a JSON array of snapshots)" }
        var text = "in the snapshot at index \(first.intValue ?? 0) of the top-level array"
        let rest = path.dropFirst().map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        if !rest.isEmpty { text += ", at \(rest.hasPrefix(".") ? String(rest.dropFirst()) : rest)" }
        return text
    }
}
