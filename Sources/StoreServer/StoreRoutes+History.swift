import Foundation
import HTTPTypes
import Hummingbird
import OpenSwiftData
import ServiceLifecycle
import StoreWire

/// The history endpoints: `history` and `history/delete` take a ``HistoryRequest``, and
/// `history/events` streams server-sent events, one per new transaction, for as long as the
/// client stays connected (the server ends the streams when it shuts down).
extension StoreRoutes {
    func registerHistory<Context: RequestContext>(reading: RouterGroup<Context>, administering: RouterGroup<Context>) {
        reading.post(RouterPath(StoreAPI.history)) { request, _ in
            let bytes = try await body.bytes(of: request)
            return try JSONResponse.make(try await work.run { try store.fetchHistory(try historyRequest(bytes)) })
        }
        administering.post(RouterPath(StoreAPI.deleteHistory)) { request, _ in
            let bytes = try await body.bytes(of: request)
            try await work.run { try store.deleteHistory(try historyRequest(bytes)) }
            return Response(status: .noContent)
        }
        reading.get(RouterPath(StoreAPI.historyEvents)) { _, _ in
            try historyEvents()
        }
    }

    /// Checks and decodes a history body within the query limits.
    private func historyRequest(_ bytes: [UInt8]) throws -> HistoryRequest {
        _ = try queryLimits.check(bytes)
        return try body.decode(HistoryRequest.self, from: bytes)
    }

    /// `event: history`, the transaction number as the event id, and a ``HistoryEvent``; first
    /// the newest transaction at connection time, then each newer one.
    private func historyEvents() throws -> Response {
        guard store.store is any HistoryRecordReading else {
            throw StoreServerError(.notFound, "The server's store (\(type(of: store.store))) keeps no history to stream.")
        }
        let broadcaster = store.historyEvents
        let stream = broadcaster.listen()
        let storeIdentifier = broadcaster.storeIdentifier
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // Clients wait a second before connecting again.
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            for await message in stream.cancelOnGracefulShutdown() {
                switch message {
                case .latest(let number):
                    let token = number.map { DefaultHistoryToken(storeIdentifier: storeIdentifier, transactionIdentifier: $0) }
                    let data = String(decoding: try WireCoding.encoder().encode(HistoryEvent(token: token)), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "event: history\nid: \(number ?? 0)\ndata: \(data)\n\n"))
                case .keepAlive:
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            try await writer.finish(nil)
        })
    }
}
