import Foundation
import HTTPTypes
import Hummingbird
import OpenSwiftData
import StoreWire

/// The API's endpoints (see openapi.yaml). Decoding, checking and the store call run through
/// ``BlockingWork``, off the server's event loops and executor threads, so the time limit covers
/// them all and a costly body cannot hold up the requests behind it. Each route needs its token
/// to have a scope: reads `read`, saves `write`, batch deletes and deleting history `admin`.
struct StoreRoutes: Sendable {
    let store: ServedStore
    let tokens: TokenBook
    let body: JSONBody
    let queryLimits: QueryLimits
    let heavyQueries = HeavyQueryGate()
    let work: BlockingWork

    /// The routes behind a check that the request's token has `scope`.
    func routes<Context: RequestContext>(needing scope: StoreServerConfiguration.Scope,
                                         on router: some RouterMethods<Context>) -> RouterGroup<Context> {
        router.group().add(middleware: BearerTokenMiddleware(tokens: tokens, scope: scope))
    }

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get(RouterPath(StoreAPI.health)) { _, _ in
            try JSONResponse.make(["status": "ok"])
        }
        router.get(RouterPath(StoreAPI.document)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: try APIDocument.bytes())))
        }
        let reading = routes(needing: .read, on: router)
        reading.get(RouterPath(StoreAPI.schema)) { [store] _, _ in
            try JSONResponse.make(store.schemaRecord)
        }
        reading.post(RouterPath(StoreAPI.fetch)) { request, _ in
            let bytes = try await body.bytes(of: request)
            return try JSONResponse.make(FetchResponse(snapshots: try await work.run { try querying(bytes, store.fetch) }))
        }
        reading.post(RouterPath(StoreAPI.rows)) { request, _ in
            let bytes = try await body.bytes(of: request)
            return JSONResponse.make(encoded: try await work.run { try querying(bytes, store.rows).json() })
        }
        reading.post(RouterPath(StoreAPI.count)) { request, _ in
            let bytes = try await body.bytes(of: request)
            return try JSONResponse.make(CountResponse(count: try await work.run { try querying(bytes, store.count) }))
        }
        reading.post(RouterPath(StoreAPI.identifiers)) { request, _ in
            let bytes = try await body.bytes(of: request)
            return try JSONResponse.make(IdentifiersResponse(identifiers: try await work.run { try querying(bytes, store.identifiers) }))
        }
        let administering = routes(needing: .admin, on: router)
        administering.post(RouterPath(StoreAPI.batchDelete)) { request, _ in
            let bytes = try await body.bytes(of: request)
            try await work.run { try querying(bytes) { query, author in try store.batchDelete(query, author: author) } }
            return Response(status: .noContent)
        }
        let writing = routes(needing: .write, on: router)
        writing.post(RouterPath(StoreAPI.save)) { request, _ in
            try await save(request)
        }
        registerHistory(reading: reading, administering: administering)
        registerSync(reading: reading, writing: writing)
    }

    /// Checks, decodes and validates a query body, then runs `call` with the query (a heavy one
    /// through ``HeavyQueryGate``).
    private func querying<T>(_ bytes: [UInt8], _ call: (DataStoreQuery) throws -> T) throws -> T {
        try querying(bytes) { query, _ in try call(query) }
    }

    /// ``querying(_:_:)``, handing `call` the request's author too.
    private func querying<T>(_ bytes: [UInt8], _ call: (DataStoreQuery, String?) throws -> T) throws -> T {
        let nodes = try queryLimits.check(bytes)
        let request = try QueryRequest.read(from: bytes) { try body.decode(QueryRequest.self, from: $0) }
        try QueryValidation(schema: store.schema).validate(request.query)
        return try heavyQueries.pass(heavy: nodes > QueryLimits.heavyNodes) { try call(request.query, request.author) }
    }

    private func save(_ request: Request) async throws -> Response {
        let key = try idempotencyKey(of: request)
        let bytes = RequestBytes(try await body.data(of: request))
        let receipt = try await work.run { [store, body] in
            let validation = SaveValidation(schema: store.schema)
            let changes = try Self.decodeSave(bytes.take(), body: body, validation: validation)
            try validation.validate(changes, storeIdentifier: store.identifier)
            // By meaning: the same save re-formatted (other whitespace, other key order) is a retry.
            let fingerprint = try WireCoding.fingerprint(of: changes)
            return try store.save(changes, idempotencyKey: key, fingerprint: fingerprint)
        }
        var headers = HTTPFields()
        if receipt.isReplay, let name = HTTPField.Name(StoreAPI.replayedHeader) {
            headers[name] = "true"
        }
        return JSONResponse.make(encoded: receipt.response, headers: headers)
    }

    /// The save's changes, checked against the schema; the body is the caller's to release as soon
    /// as this returns, before the store writes.
    private static func decodeSave(_ data: Data, body: JSONBody, validation: SaveValidation) throws -> SaveRequest {
        try validation.validate(data, body: body)
        return try body.decode(SaveRequest.self, from: data)
    }

    /// The request's idempotency key, in the namespace of its token: another token sending the
    /// same key makes a save of its own.
    func idempotencyKey(of request: Request) throws -> IdempotencyKey? {
        try idempotencyKeyHeader(of: request).map { IdempotencyKey(namespace: try tokens.grant(of: request).namespace, key: $0) }
    }

    /// 1 to 128 characters of letters, digits, `-`, `_`, `.` and `:` (a UUID fits).
    private func idempotencyKeyHeader(of request: Request) throws -> String? {
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
