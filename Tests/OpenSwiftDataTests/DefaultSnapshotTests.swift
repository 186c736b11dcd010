import Foundation
import OpenSwiftData
import Testing

@Suite struct DefaultSnapshotTests {
    /// A snapshot of `model` as the context builds it at save time.
    private func snapshot(of model: some PersistentModel) -> DefaultSnapshot {
        var related: [PersistentIdentifier: any BackingData] = [:]
        return DefaultSnapshot(from: model.persistentBackingData, relatedBackingDatas: &related)
    }

    private func json(_ value: some Encodable, dates: JSONEncoder.DateEncodingStrategy = .iso8601) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = dates
        let data = try encoder.encode(value)
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func encodesFlatWithOneKeyPerPropertyName() throws {
        _ = Schema([Sample.self])
        let object = try json(snapshot(of: Sample()))
        #expect(Set(object.keys) == ["persistentIdentifier", "text", "count", "ratio", "flag", "when", "uuid", "link",
                                     "blob", "priority", "place", "tags", "maybe"])
        #expect(object["text"] as? String == "a")
        #expect(object["count"] as? Int == 1)
        #expect(object["ratio"] as? Double == 0.5)
        #expect(object["flag"] as? Bool == true)
        #expect(object["when"] as? String == "2023-11-14T22:13:20Z")
        #expect(object["uuid"] as? String == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(object["link"] as? String == "https://example.com/a")
        #expect(object["blob"] as? String == "AQID")
        #expect(object["priority"] as? String == "high")
        #expect(object["place"] as? [String: Double] == ["latitude": 48.85, "longitude": 2.35])
        #expect(object["tags"] as? [String] == ["x", "y"])
        #expect(object["maybe"] is NSNull)
        let identifier = try #require(object["persistentIdentifier"] as? [String: Any])
        let implementation = try #require(identifier["implementation"] as? [String: Any])
        #expect(implementation["entityName"] as? String == "Sample")
        #expect(implementation["isTemporary"] as? Bool == true)
    }

    @Test func roundTripsEveryValueKindThroughJSON() throws {
        _ = Schema([Sample.self])
        let original = Sample(text: "été", count: -7, ratio: -0.25, flag: false, when: Date(timeIntervalSince1970: -86_400.5),
                              priority: .low, tags: [], maybe: "here")
        let encoder = JSONEncoder()
        let decoded = try JSONDecoder().decode(DefaultSnapshot.self, from: encoder.encode(snapshot(of: original)))
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(decoded), as: UTF8.self) == String(decoding: try encoder.encode(snapshot(of: original)), as: UTF8.self))
        #expect(decoded.persistentIdentifier == original.persistentModelID)
    }

    @Test func decodingHonoursTheDecodersDateStrategy() throws {
        _ = Schema([Trip.self])
        let text = #"""
        {"persistentIdentifier": {"implementation": {"entityName": "Trip", "isTemporary": false, "primaryKey": "A1", "storeIdentifier": "trips.json"}},
         "name": "Paris", "destination": "France", "startDate": "2025-06-15T15:06:40Z", "budget": 1200, "notes": null}
        """#
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode(DefaultSnapshot.self, from: Data(text.utf8))
        #expect(decoded.persistentIdentifier.storeIdentifier == "trips.json")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let object = try json(decoded, dates: .secondsSince1970)
        #expect(object["startDate"] as? Double == 1_750_000_000)
        #expect(object["notes"] is NSNull)
    }

    @Test func missingOptionalAndDefaultedPropertiesDecodeToTheirDefaults() throws {
        _ = Schema([Trip.self])
        let text = #"""
        {"persistentIdentifier": {"implementation": {"entityName": "Trip", "isTemporary": false, "primaryKey": 3, "storeIdentifier": "s"}},
         "name": "Oslo", "destination": "Norway", "startDate": 0}
        """#
        let decoded = try JSONDecoder().decode(DefaultSnapshot.self, from: Data(text.utf8))
        let object = try json(decoded)
        #expect(object["budget"] as? Double == 0)
        #expect(object["notes"] is NSNull)
    }

    @Test func aMissingRequiredPropertyIsADecodingErrorNamingIt() throws {
        _ = Schema([Trip.self])
        let text = #"""
        {"persistentIdentifier": {"implementation": {"entityName": "Trip", "isTemporary": false, "primaryKey": 3, "storeIdentifier": "s"}},
         "destination": "Norway", "startDate": 0}
        """#
        do {
            _ = try JSONDecoder().decode(DefaultSnapshot.self, from: Data(text.utf8))
            Issue.record("decoding succeeded")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "name")
            #expect(context.debugDescription == "The Trip snapshot has no value for 'name', which is not optional and has no default value.")
        }
    }

    @Test func anUnknownEntityIsADecodingErrorThatSaysWhatToDo() throws {
        let text = #"{"persistentIdentifier": {"implementation": {"entityName": "Nowhere", "isTemporary": true, "primaryKey": "x"}}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DefaultSnapshot.self, from: Data(text.utf8)) }
    }

    @Test func copyMovesToTheNewIdentifier() throws {
        _ = Schema([Trip.self])
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch)
        let permanent = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: 7)
        let copy = snapshot(of: trip).copy(persistentIdentifier: permanent)
        #expect(copy.persistentIdentifier == permanent)
        #expect(try json(copy)["name"] as? String == "Paris")
    }
}
