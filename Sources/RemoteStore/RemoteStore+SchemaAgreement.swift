import Foundation
import OpenSwiftData
import StoreWire

/// Whether a store's server was found to serve the client's schema: asked once, before the
/// store's first request, and again after a failure to ask.
final class SchemaAgreement: @unchecked Sendable {
    private let lock = NSLock()
    private var agreed = false

    /// Runs `check` unless one has passed already; concurrent first requests wait for one check.
    func ensure(_ check: () throws -> Void) throws {
        try lock.withLock {
            guard !agreed else { return }
            try check()
            agreed = true
        }
    }
}

extension RemoteStore {
    /// Compares the server's schema record (`GET /v1/schema`) with this client's, so that a
    /// client and server built from different schema versions fail with
    /// ``RemoteStoreError/Code/schemaMismatch`` naming both versions, instead of exchanging
    /// snapshots one side cannot read. A server without the endpoint (404) is taken at its word.
    /// Failures to ask are reported as failures of `path`, the request the check comes before.
    func checkServerSchema(before path: String) throws {
        let reply = try transport.send(StoreAPI.schema, body: nil, label: path)
        if reply.status == 404 { return }
        _ = try answer(to: path, reply: reply)
        let served: StoredSchema
        do {
            served = try WireCoding.decoder().decodeChecked(StoredSchema.self, from: reply.body)
        } catch {
            throw RemoteStoreError(.invalidResponse, "The server's schema record cannot be read (\(error)); is it an openswiftdata-server?", status: reply.status, underlying: error)
        }
        if let mismatch = Self.mismatch(client: StoredSchema(schema), server: served) { throw mismatch }
    }

    /// The error for a server whose entities differ from the client's: one the client uses is
    /// missing or shaped otherwise. Entities only the server has do not matter to this client.
    static func mismatch(client: StoredSchema, server: StoredSchema) -> RemoteStoreError? {
        let differing = client.entities.keys.sorted().filter { server.entities[$0] != client.entities[$0] }
        guard !differing.isEmpty else { return nil }
        let names = differing.map { server.entities[$0] == nil ? "\($0) (not served)" : $0 }.joined(separator: ", ")
        let fix = client.version < server.version
            ? "Update this app to the version that uses schema \(server.version)."
            : "Migrate the server's store to schema \(client.version) (`openswiftdata-server migrate`) and restart it with that schema."
        return RemoteStoreError(.schemaMismatch, "This app uses schema version \(client.version), but the server serves schema version \(server.version); they differ in \(names). \(fix)")
    }
}
