import Foundation
import HTTPTypes
import Hummingbird
import OpenSwiftData
import StoreWire

/// The sync endpoints, which StoreSync's engine speaks (see openapi.yaml): `sync/push` takes a
/// client's changes with its own references and answers the keys it gave; `sync/pull`,
/// `sync/snapshot` and `sync/conflicts` read.
extension StoreRoutes {
    func registerSync<Context: RequestContext>(reading: RouterGroup<Context>, writing: RouterGroup<Context>) {
        writing.post(RouterPath(StoreAPI.syncPush)) { request, _ in
            try await syncPush(request)
        }
        reading.post(RouterPath(StoreAPI.syncPull)) { request, _ in
            let bytes = try await body.bytes(of: request)
            return try JSONResponse.make(try await work.run { try store.syncPull(try body.decode(SyncPullRequest.self, from: bytes)) })
        }
        reading.post(RouterPath(StoreAPI.syncSnapshot)) { request, _ in
            let bytes = try await body.bytes(of: request)
            return try JSONResponse.make(try await work.run { try store.syncSnapshot(try body.decode(SyncSnapshotRequest.self, from: bytes)) })
        }
        reading.post(RouterPath(StoreAPI.syncConflicts)) { request, _ in
            let bytes = try await body.bytes(of: request)
            return try JSONResponse.make(try await work.run { try store.syncConflicts(try body.decode(SyncConflictsRequest.self, from: bytes)) })
        }
    }

    /// A push is applied once per key: a retry sends the same bytes (the client keeps them until
    /// answered), so their fingerprint tells a retry from a key reused by mistake.
    private func syncPush(_ request: Request) async throws -> Response {
        guard let key = try idempotencyKey(of: request) else {
            throw StoreServerError(.invalidRequest, "A sync push needs an Idempotency-Key header, the same for each retry of the push.")
        }
        let bytes = try await body.bytes(of: request)
        let receipt = try await work.run { [store, body] in
            try store.syncPush(try body.decode(SyncPushRequest.self, from: bytes), idempotencyKey: key, fingerprint: WireCoding.fingerprint(bytes))
        }
        var headers = HTTPFields()
        if receipt.isReplay, let name = HTTPField.Name(StoreAPI.replayedHeader) {
            headers[name] = "true"
        }
        return JSONResponse.make(encoded: receipt.response, headers: headers)
    }
}
