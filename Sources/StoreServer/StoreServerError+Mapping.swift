import Foundation
import Hummingbird
import JSONStore
import OpenSwiftData
import StoreWire

extension StoreServerError {
    /// The answer to any error a request ran into. Store errors keep their own code on the wire
    /// (`uniqueConstraintViolation`, `deleteDenied`…), so a client can tell them apart.
    init(answering error: any Error) {
        switch error {
        case let error as StoreServerError:
            self = error
        case let error as DataStoreError:
            self.init(dataStoreError: error)
        case let error as any TransientStoreError where error.isTransient:
            self.init(.storeUnavailable, "The server's store is unavailable for now: its database could not be reached, did not answer in time, or was busy. Retry shortly; a save may or may not have been applied, so retry it with the same Idempotency-Key, which applies it once.")
            detail = String(describing: error)
        case let error as SwiftDataError where error == .historyTokenExpired:
            self.init(WireErrorCode.historyTokenExpired, "The history token is from before history the store deleted; fetch the history again without it (or from a newer token).",
                      status: .gone)
        case let error as PersistenceError:
            self.init(error.code.rawValue, error.message, status: Self.status(of: error.code))
        case let error as SQLiteStoreError:
            self.init(error.code.rawValue, error.message, status: Self.status(of: error.code))
        case let error as JSONStoreError where error.code == .notSynced:
            self.init(error.code.rawValue, "The save was applied, but the server's disk did not confirm it durable. Retry it with the same Idempotency-Key: the retry is answered without applying it again.",
                      status: .serviceUnavailable)
            detail = error.message
        case let error as JSONStoreError:
            self.init(error.code.rawValue, error.message, status: Self.status(of: error.code))
        case let error as DecodingError:
            self.init(.invalidRequest, "The request body is not what this endpoint expects: \(Self.describe(error)) See the API document at /v1/openapi.yaml.")
        case let error as any HTTPResponseError:
            let code: Code = error.status == .notFound ? .notFound : .invalidRequest
            self.init(code, error.status == .notFound ? "No such endpoint; see /v1/openapi.yaml." : "\(error)",
                      status: error.status)
        default:
            self.init(.storeFailure, "The store failed.", status: .internalServerError)
            detail = String(reflecting: error)
        }
    }

    private init(dataStoreError: DataStoreError) {
        switch dataStoreError {
        case .preferInMemoryFilter:
            self.init(.invalidRequest, "The server's store cannot run this filter exactly; filter on the client.",
                      status: .unprocessableContent, wireCode: WireErrorCode.preferInMemoryFilter)
        case .preferInMemorySort:
            self.init(.invalidRequest, "The server's store cannot run this sort exactly; sort on the client.",
                      status: .unprocessableContent, wireCode: WireErrorCode.preferInMemorySort)
        default:
            self.init(.invalidRequest, "The server's store does not support this operation (\(dataStoreError)).", status: .notImplemented)
        }
    }

    private init(_ wireCode: String, _ message: String, status: HTTPResponse.Status) {
        let code: Code = switch status {
        case .conflict: .conflict
        case .notFound: .notFound
        case .forbidden: .forbidden
        case .badRequest, .unprocessableContent, .gone: .invalidRequest
        case .serviceUnavailable: .timeout
        default: .storeFailure
        }
        self.init(code, message, status: status, wireCode: wireCode)
    }

    private static func status(of code: PersistenceError.Code) -> HTTPResponse.Status {
        switch code {
        case .uniqueConstraintViolation, .deleteDenied, .relationshipCountOutOfRange: .conflict
        case .unknownEntity: .notFound
        case .readOnly: .forbidden
        case .idempotencyKeyReused: .unprocessableContent
        case .invalidIdentifier, .invalidSnapshot, .foreignHistoryToken: .badRequest
        case .unavailable: .notFound
        default: .internalServerError
        }
    }

    private static func status(of code: JSONStoreError.Code) -> HTTPResponse.Status {
        switch code {
        case .invalidReference, .invalidValue: .badRequest
        case .uniqueConstraintViolation: .conflict
        default: .internalServerError
        }
    }

    private static func status(of code: SQLiteStoreError.Code) -> HTTPResponse.Status {
        switch code {
        case .uniqueConstraintViolation: .conflict
        case .invalidReference, .invalidValue: .badRequest
        case .busy: .serviceUnavailable
        default: .internalServerError
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return names.isEmpty ? "at the top level" : "at \(names.hasPrefix(".") ? String(names.dropFirst()) : names)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "'\(key.stringValue)' is missing \(path(context))."
        case .typeMismatch(let type, let context): return "expected \(type) \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "expected \(type), found null, \(path(context))."
        case .dataCorrupted(let context): return "\(context.debugDescription) (\(path(context)))."
        @unknown default: return "\(error)"
        }
    }
}
