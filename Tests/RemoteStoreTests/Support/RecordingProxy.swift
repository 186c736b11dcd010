import DataStoreTesting
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import StoreServer
import StoreWire

/// An HTTP proxy in front of a test server that records what clients send, and can hold back the
/// answers to the first saves (the server has committed them) past the client's timeout: responses
/// lost on the way back.
final class RecordingProxy: @unchecked Sendable {
    struct Exchange {
        let path: String
        let idempotencyKey: String?
        let body: Data
        let status: Int
        let replayed: Bool
    }

    private let lock = NSLock()
    private var exchanges: [Exchange] = []
    private var stalledSaves = 0
    private let stallFirstSave: Duration?
    private let stalledSaveCount: Int
    private(set) var url: URL!
    private var task: Task<Void, any Error>?

    var recorded: [Exchange] { lock.withLock { exchanges } }

    /// Holds back the answers to the first `stallingSaves` saves for `stallFirstSave`.
    init(upstream: URL, stallFirstSave: Duration? = nil, stallingSaves: Int = 1) throws {
        self.stallFirstSave = stallFirstSave
        stalledSaveCount = stallingSaves
        let router = Router()
        for path in [StoreAPI.fetch, StoreAPI.rows, StoreAPI.count, StoreAPI.identifiers, StoreAPI.save, StoreAPI.batchDelete] {
            router.post(RouterPath(path)) { [unowned self] request, _ in
                try await self.forward(request, path: path, upstream: upstream)
            }
        }
        let started = DispatchSemaphore(value: 0)
        let port = PortBox()
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                      onServerRunning: { channel in
                                          port.value = channel.localAddress?.port ?? 0
                                          started.signal()
                                      }, logger: quietLogger)
        task = Task(executorPreference: ServerExecutor.shared) { try await application.run() }
        guard started.wait(timeout: .now() + 30) == .success else { throw StoreServerError(.timeout, "The proxy did not start.") }
        url = URL(string: "http://127.0.0.1:\(port.value)")!
    }

    func stop() {
        task?.cancel()
    }

    private func forward(_ request: Request, path: String, upstream: URL) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 << 20)
        var outgoing = HTTPClientRequest(url: upstream.absoluteString + path)
        outgoing.method = .POST
        for field in request.headers where ["authorization", "content-type", "idempotency-key"].contains(field.name.canonicalName) {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        outgoing.body = .bytes(body)
        // Off the cooperative pool, which blocking tests may hold past the request's deadline.
        let (answer, bytes) = try await withBlockingWork {
            let answer = try await HTTPClient.shared.execute(outgoing, timeout: .seconds(30))
            return (answer, try await answer.body.collect(upTo: 64 << 20))
        }
        let replayed = answer.headers.first(name: StoreAPI.replayedHeader) == "true"
        let key = request.headers[HTTPField.Name(StoreAPI.idempotencyKeyHeader)!]
        let stall: Bool = lock.withLock {
            exchanges.append(Exchange(path: path, idempotencyKey: key, body: Data(body.readableBytesView),
                                      status: Int(answer.status.code), replayed: replayed))
            guard path == StoreAPI.save, stallFirstSave != nil, stalledSaves < stalledSaveCount else { return false }
            stalledSaves += 1
            return true
        }
        if stall, let stallFirstSave { try await Task.sleep(for: stallFirstSave) }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if replayed { headers[HTTPField.Name(StoreAPI.replayedHeader)!] = "true" }
        return Response(status: HTTPResponse.Status(code: Int(answer.status.code)), headers: headers,
                        body: ResponseBody(byteBuffer: bytes))
    }
}

private final class PortBox: @unchecked Sendable {
    var value = 0
}
