import Foundation
import OpenSwiftData
import Testing

@Suite struct PersistentIdentifierTests {
    @Test func mintedIdentifiersArePermanentAndCompareByValue() throws {
        let a = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: 1)
        let b = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: 1)
        let c = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: 2)
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != c && a < c)
        #expect(a.storeIdentifier == "store" && a.entityName == "Trip")
    }

    /// Makes enough scopes of other stores that the intern table sweeps at least once.
    private func fillInternTable(tag: String) {
        for index in 0..<(IdentifierScope.internedCountForTesting * 2 + 64) {
            _ = IdentifierScope.of(entityName: "Filler", storeIdentifier: "\(tag)-\(index)")
        }
    }

    @Test func identifiersOfOneEntityAndStoreShareOneScopeWhichTheTableLetsGoOnceUnused() throws {
        let store = UUID().uuidString
        var first: PersistentIdentifier? = try PersistentIdentifier.identifier(for: store, entityName: "Trip", primaryKey: 1)
        var decoded: PersistentIdentifier? = try JSONDecoder().decode(PersistentIdentifier.self, from: JSONEncoder().encode(first))
        #expect(first?.scope === decoded?.scope)
        #expect(first == decoded)
        weak let scope = first?.scope
        first = nil
        fillInternTable(tag: store)
        #expect(scope != nil)
        decoded = nil
        fillInternTable(tag: store + "-again")
        #expect(scope == nil)
        // A new scope of the same pair: identifiers made from now on still equal each other.
        let again = try PersistentIdentifier.identifier(for: store, entityName: "Trip", primaryKey: 1)
        #expect(again == (try PersistentIdentifier.identifier(for: store, entityName: "Trip", primaryKey: 1)))
        #expect(again.entityName == "Trip" && again.storeIdentifier == store)
    }

    @Test func aScopeInUseSurvivesTheTablesSweepsAndStaysTheOneOfItsPair() throws {
        let store = UUID().uuidString
        let kept = try PersistentIdentifier.identifier(for: store, entityName: "Trip", primaryKey: 1)
        fillInternTable(tag: store)
        let later = try PersistentIdentifier.identifier(for: store, entityName: "Trip", primaryKey: 1)
        #expect(later.scope === kept.scope)
        #expect(later == kept)
    }

    @Test func encodesAsSwiftDataDoesWithThePrimaryKeysOwnJSONType() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let integer = try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: 42)
        #expect(String(decoding: try encoder.encode(integer), as: UTF8.self) ==
            #"{"implementation":{"entityName":"Trip","isTemporary":false,"primaryKey":42,"storeIdentifier":"s","uriRepresentation":"x-swiftdata:\/\/s\/Trip\/42"}}"#)
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let string = try PersistentIdentifier.identifier(for: "trips.json", entityName: "Trip", primaryKey: uuid)
        #expect(String(decoding: try encoder.encode(string), as: UTF8.self) ==
            #"{"implementation":{"entityName":"Trip","isTemporary":false,"primaryKey":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","storeIdentifier":"trips.json","uriRepresentation":"x-swiftdata:\/\/trips.json\/Trip\/E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}}"#)
    }

    @Test func theURIPercentEncodesWhatAPathComponentCannotHoldAndKeepsTheRest() throws {
        let plain = try PersistentIdentifier.identifier(for: "trips.json", entityName: "Trip", primaryKey: "A1-b_c~d")
        #expect(plain.description == "x-swiftdata://trips.json/Trip/A1-b_c~d")
        let negative = try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: -7)
        #expect(negative.description == "x-swiftdata://s/Trip/-7")
        let spaced = try PersistentIdentifier.identifier(for: "my store", entityName: "Trip", primaryKey: "a b/c")
        #expect(spaced.description == "x-swiftdata://my%20store/Trip/a%20b%2Fc")
    }

    /// Parts made only of unreserved characters skip Foundation; every other part must come out
    /// as Foundation percent-encodes a path component, for each printable ASCII character.
    @Test func everyPrintableCharacterIsEscapedAsFoundationEscapesAPathComponent() {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
        for byte in UInt8(0x20)...UInt8(0x7E) {
            let part = "a\(Character(Unicode.Scalar(byte)))é"
            #expect(PersistentIdentifier.escapedPathComponent(part) == part.addingPercentEncoding(withAllowedCharacters: allowed))
            let ascii = "a\(Character(Unicode.Scalar(byte)))b"
            #expect(PersistentIdentifier.escapedPathComponent(ascii) == ascii.addingPercentEncoding(withAllowedCharacters: allowed))
        }
    }

    @Test func aDecodedIdentifierEqualsTheEncodedOne() throws {
        let identifier = try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: "k1")
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: JSONEncoder().encode(identifier))
        #expect(decoded == identifier)
        let unsaved = Trip(name: "x", destination: "y", startDate: epoch).persistentModelID
        #expect(try JSONDecoder().decode(PersistentIdentifier.self, from: JSONEncoder().encode(unsaved)) == unsaved)
        #expect(unsaved.storeIdentifier == nil)
    }

    @Test func anEmptyStoreIdentifierIsRefused() {
        #expect(throws: PersistenceError.self) { try PersistentIdentifier.identifier(for: "", entityName: "Trip", primaryKey: 1) }
        #expect(throws: PersistenceError.self) { try PersistentIdentifier.identifier(for: "s", entityName: "", primaryKey: 1) }
    }
}
