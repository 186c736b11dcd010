import Foundation
import HTTPTypes
import Hummingbird
import OpenSwiftData
import StoreWire

/// The API's endpoints (see openapi.yaml). Store calls block, so they run through ``BlockingWork``.
struct StoreRoutes: Sendable {
    let store: ServedStore
    let body: JSONBody
    let work: BlockingWork

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get(RouterPath(StoreAPI.health)) { _, _ in
            try JSONResponse.make(["status": "ok"])
        }
        router.get(RouterPath(StoreAPI.document)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: try APIDocument.bytes())))
        }
        router.post(RouterPath(StoreAPI.fetch)) { request, _ in
            let query = try await query(of: request)
            return try JSONResponse.make(FetchResponse(snapshots: try await blocking { try store.fetch(query) }))
        }
        router.post(RouterPath(StoreAPI.count)) { request, _ in
            let query = try await query(of: request)
            return try JSONResponse.make(CountResponse(count: try await blocking { try store.count(query) }))
        }
        router.post(RouterPath(StoreAPI.identifiers)) { request, _ in
            let query = try await query(of: request)
            return try JSONResponse.make(IdentifiersResponse(identifiers: try await blocking { try store.identifiers(query) }))
        }
        router.post(RouterPath(StoreAPI.batchDelete)) { request, _ in
            let query = try await query(of: request)
            try await blocking { try store.batchDelete(query) }
            return Response(status: .noContent)
        }
        router.post(RouterPath(StoreAPI.save)) { request, _ in
            try await save(request)
        }
    }

    private func query(of request: Request) async throws -> DataStoreQuery {
        let bytes = try await body.bytes(of: request)
        let query = try body.decode(QueryRequest.self, from: bytes).query
        try QueryValidation(schema: store.schema).validate(query)
        return query
    }

    private func save(_ request: Request) async throws -> Response {
        let key = try idempotencyKey(of: request)
        let bytes = try await body.bytes(of: request)
        try SaveValidation(schema: store.schema).validate(bytes, body: body)
        let changes = try body.decode(SaveRequest.self, from: bytes)
        let fingerprint = WireCoding.fingerprint(bytes)
        let receipt = try await blocking { try store.save(changes, idempotencyKey: key, fingerprint: fingerprint) }
        var headers = HTTPFields()
        if receipt.isReplay, let name = HTTPField.Name(StoreAPI.replayedHeader) {
            headers[name] = "true"
        }
        return JSONResponse.make(encoded: receipt.response, headers: headers)
    }

    /// 1 to 128 characters of letters, digits, `-`, `_`, `.` and `:` (a UUID fits).
    private func idempotencyKey(of request: Request) throws -> String? {
        guard let name = HTTPField.Name(StoreAPI.idempotencyKeyHeader), let key = request.headers[name] else { return nil }
        let allowed = key.utf8.allSatisfy { byte -> Bool in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"): true
            default: false
            }
        }
        guard (1...128).contains(key.utf8.count), allowed else {
            throw StoreServerError(.invalidRequest, "The Idempotency-Key header must be 1 to 128 letters, digits, '-', '_', '.' or ':' (a UUID works).")
        }
        return key
    }

    private func blocking<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async throws -> T {
        try await work.run(call)
    }
}

/// The OpenAPI document shipped with the server.
enum APIDocument {
    static func bytes() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw StoreServerError(.storeFailure, "The server was built without its openapi.yaml resource.")
        }
        return Array(try Data(contentsOf: url))
    }
}
