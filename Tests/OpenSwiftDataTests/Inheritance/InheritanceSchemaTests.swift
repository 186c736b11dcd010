import Foundation
import OpenSwiftData
import Testing

@Suite struct InheritanceSchemaTests {
    private func root<M: PersistentModel>(_: M.Type) -> ObjectIdentifier { ObjectIdentifier(M.Root.self) }

    @Test func rootIsTheTopModelClassOfTheHierarchy() {
        #expect(root(Journey.self) == ObjectIdentifier(Journey.self))
        #expect(root(BusinessJourney.self) == ObjectIdentifier(Journey.self))
        #expect(root(ConferenceJourney.self) == ObjectIdentifier(Journey.self))
        #expect(root(Stop.self) == ObjectIdentifier(Stop.self))
    }

    @Test func subclassSchemaMetadataListsInheritedPropertiesFirst() {
        #expect(Journey.schemaMetadata.map(\.name) == ["name", "start", "stops", "SwiftData.Schema.Unique"])
        #expect(ConferenceJourney.schemaMetadata.map(\.name) == ["name", "start", "stops", "SwiftData.Schema.Unique", "perdiem", "talk"])
    }

    @Test func entitiesLinkSuperentitiesAndSubentities() throws {
        let schema = Schema([Journey.self, PersonalJourney.self, BusinessJourney.self, ConferenceJourney.self])
        let journey = try #require(schema.entitiesByName["Journey"])
        let business = try #require(schema.entitiesByName["BusinessJourney"])
        let conference = try #require(schema.entitiesByName["ConferenceJourney"])
        #expect(journey.superentity == nil)
        #expect(Set(journey.subentities.map(\.name)) == ["PersonalJourney", "BusinessJourney"])
        #expect(business.superentityName == "Journey")
        #expect(business.superentity === journey)
        #expect(business.subentities.map(\.name) == ["ConferenceJourney"])
        #expect(conference.superentity === business)
        #expect(business.storedProperties.map(\.name) == ["perdiem"])
        #expect(business.inheritedProperties.map(\.name) == ["name", "start", "stops"])
        #expect(conference.inheritedProperties.map(\.name) == ["name", "start", "stops", "perdiem"])
        #expect(conference.properties.map(\.name) == ["name", "start", "stops", "perdiem", "talk"])
        #expect(Set(conference.attributesByName.keys) == ["name", "start", "perdiem", "talk"])
        #expect(journey.uniquenessConstraints == [["name"]])
    }

    @Test func schemaOfASubclassAloneBringsItsSuperclass() {
        let schema = Schema([PersonalJourney.self])
        #expect(Set(schema.entities.map(\.name)) == ["PersonalJourney", "Journey", "Stop"])
        #expect(schema.entitiesByName["PersonalJourney"]?.superentity === schema.entitiesByName["Journey"])
    }

    @Test func inheritedRelationshipKeepsItsResolvedInverse() throws {
        let schema = Schema(journeyTypes)
        let stops = try #require(schema.entitiesByName["BusinessJourney"]?.relationshipsByName["stops"])
        #expect(stops.inverseName == "journey")
        #expect(stops.deleteRule == .cascade)
    }

    @Test func subclassInitializerFillsOneBackingDataLaidOutForTheMostDerivedClass() {
        let start = Date(timeIntervalSince1970: 1_000)
        let talk = ConferenceJourney(name: "WWDC", start: start, perdiem: 120, talk: "Inheritance")
        #expect(talk.name == "WWDC")
        #expect(talk.start == start)
        #expect(talk.perdiem == 120)
        #expect(talk.talk == "Inheritance")
        #expect(talk.stops.isEmpty)
        talk.perdiem = 150
        talk.name = "WWDC26"
        #expect(talk.perdiem == 150)
        #expect(talk.name == "WWDC26")
        #expect(talk.persistentModelID.entityName == "ConferenceJourney")
        let personal = PersonalJourney(name: "Home", start: start, reason: .family)
        #expect(personal.reason == .family)
        #expect(personal.companion == nil)
        let plain = Journey(name: "Plain", start: start)
        #expect(plain.persistentModelID.entityName == "Journey")
    }

    @Test func subclassInstanceThroughItsBaseTypeReadsTheSameValues() {
        let business: Journey = BusinessJourney(name: "Cupertino", start: .init(timeIntervalSince1970: 0), perdiem: 80)
        #expect(business.name == "Cupertino")
        #expect((business as? BusinessJourney)?.perdiem == 80)
        #expect(!(business is PersonalJourney))
    }

    @Test func aSubclassFingerprintChangesWithItsSuperentity() throws {
        let business = try #require(Schema(journeyTypes).entity(for: BusinessJourney.self))
        let inHierarchy = StoredSchema.fingerprint(of: business)
        business.superentityName = nil
        #expect(StoredSchema.fingerprint(of: business) != inHierarchy)
    }
}
