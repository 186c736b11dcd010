import Foundation
import OpenSwiftData
import Testing

/// Foundation's decoder stops the process on 513 nested openers that end the data; the checked
/// decoding every reader of outside bytes uses refuses such data with a `DecodingError` instead.
@Suite struct CheckedJSONDecodingTests {
    @Test(arguments: ["[", "{"])
    func dataEndingInsideAnArrayOrObjectIsRefused(opener: String) {
        let data = Data(String(repeating: opener, count: 513).utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decodeChecked([Int].self, from: data) }
    }

    @Test func validDataDecodesAsBefore() throws {
        #expect(try JSONDecoder().decodeChecked([Int].self, from: Data("[1, 2] ".utf8)) == [1, 2])
    }
}
