import Foundation

extension JSONDecoder {
    /// `decode(_:from:)` for bytes from outside the process (files, requests, stored columns).
    /// Bytes that end with `[` or `{` are never JSON, and Foundation's decoder stops the process
    /// on some of them (513 nested openers that end the data) instead of throwing, so they are
    /// refused here with the error it throws for other invalid JSON.
    package func decodeChecked<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try Self.refuseUnterminated(data)
        return try decode(type, from: data)
    }

    /// `decode(_:from:configuration:)`, checked as ``decodeChecked(_:from:)`` is.
    package func decodeChecked<T: DecodableWithConfiguration>(_ type: T.Type, from data: Data,
                                                             configuration: T.DecodingConfiguration) throws -> T {
        try Self.refuseUnterminated(data)
        return try decode(type, from: data, configuration: configuration)
    }

    private static func refuseUnterminated(_ data: Data) throws {
        guard let last = data.last, last == UInt8(ascii: "[") || last == UInt8(ascii: "{") else { return }
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: [], debugDescription: "The given data was not valid JSON: it ends inside an array or object."))
    }
}
