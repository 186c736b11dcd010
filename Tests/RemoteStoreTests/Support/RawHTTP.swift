import DataStoreTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Raw HTTP requests, for what a RemoteStore never sends (no token, broken JSON, huge bodies).
struct RawHTTP {
    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let body: Data

        /// The body as JSON.
        var json: Any? { try? JSONSerialization.jsonObject(with: body) }

        /// `error.code` of a JSON error body.
        var errorCode: String? { ((json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String? { ((json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String }
    }

    let baseURL: URL

    func send(_ path: String, method: HTTPMethod = .POST, body: Data? = nil, token: String? = testToken,
              headers extra: [(String, String)] = []) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL.absoluteString + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(contentsOf: extra)
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        // Off the cooperative pool, which blocking tests may hold past the request's deadline.
        return try await withBlockingWork {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 64 << 20)
            return Reply(status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
        }
    }

    func send(_ path: String, json: String, token: String? = testToken, headers: [(String, String)] = []) async throws -> Reply {
        try await send(path, body: Data(json.utf8), token: token, headers: headers)
    }
}
