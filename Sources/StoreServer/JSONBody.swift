import Foundation
import Hummingbird
import NIOFoundationEssentialsCompat
import StoreWire

/// Reads a request's JSON body within the server's limits: size first (from `Content-Length`,
/// then while reading), nesting depth before decoding, so a hostile body costs little.
struct JSONBody {
    let maxSize: Int
    let maxDepth: Int

    func bytes(of request: Request) async throws -> [UInt8] {
        Array(try await data(of: request))
    }

    /// The body as `Data` over the one buffer it was read into, checked as ``bytes(of:)`` checks
    /// it: a large body is held once, not also copied into an array and again into `Data` to be
    /// decoded.
    func data(of request: Request) async throws -> Data {
        let length = request.headers[.contentLength].flatMap(Int.init)
        if let length, length > maxSize {
            throw tooLarge()
        }
        // Sized from Content-Length, so the buffer is not grown (and copied) as the body arrives.
        var buffer = ByteBufferAllocator().buffer(capacity: min(length ?? 0, maxSize))
        do {
            try await request.body.collect(upTo: maxSize, into: &buffer)
        } catch {
            throw tooLarge()
        }
        let data = Data(buffer: buffer, byteTransferStrategy: .noCopy)
        try data.withUnsafeBytes { try checkDepth($0) }
        return data
    }

    /// The checks `bytes(of:)` makes, for a body that did not come from a request (the fuzzers').
    func check(_ bytes: [UInt8]) throws {
        guard bytes.count <= maxSize else { throw tooLarge() }
        try bytes.withUnsafeBytes { try checkDepth($0) }
    }

    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: Data(bytes))
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        guard !data.isEmpty else {
            throw StoreServerError(.invalidRequest, "The request has no body; send a JSON object (see /v1/openapi.yaml).")
        }
        do {
            return try WireCoding.decoder().decodeChecked(T.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw StoreServerError(.invalidRequest, "The request body is not valid JSON: \(Self.syntaxProblem(in: data) ?? context.debugDescription)")
            }
            throw error
        }
    }

    /// Where the JSON breaks, e.g. "Invalid value around character 10." (JSONDecoder does not say).
    private static func syntaxProblem(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        }
    }

    /// Counts open objects and arrays outside strings.
    private func checkDepth(_ bytes: UnsafeRawBufferPointer) throws {
        var depth = 0
        try Self.forEachStructuralByte(in: bytes) { byte in
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > maxDepth {
                    throw StoreServerError(.invalidRequest, "The request body nests objects and arrays deeper than \(maxDepth) levels; simplify the query.")
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
    }

    /// Calls `visit` with each `{`, `}`, `[`, `]` and `,` outside strings, in order: a scan of the
    /// body's shape that costs a pass over its bytes, before any decoding.
    static func forEachStructuralByte(in bytes: [UInt8], _ visit: (UInt8) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { try forEachStructuralByte(in: $0, visit) }
    }

    /// The same scan over the bytes where they lie (a request body's buffer).
    static func forEachStructuralByte(in bytes: UnsafeRawBufferPointer, _ visit: (UInt8) throws -> Void) rethrows {
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","): try visit(byte)
            default: break
            }
        }
    }

    private func tooLarge() -> StoreServerError {
        StoreServerError(.payloadTooLarge, "The request body is larger than the server's limit of \(maxSize) bytes; save or query in smaller parts, or raise the limit (openswiftdata-server --max-body-size, or StoreServerConfiguration.maxBodySize).")
    }
}

enum JSONResponse {
    static func make<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        try make(encoded: WireCoding.encoder().encode(value), status: status, headers: headers)
    }

    static func make(encoded: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: encoded)))
    }
}
