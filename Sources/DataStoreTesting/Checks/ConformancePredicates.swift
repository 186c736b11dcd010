import Foundation
import OpenSwiftData

/// One predicate construct the kit checks, named for the failure message.
struct ConformancePredicate {
    let name: String
    let predicate: Predicate<ConformanceItem>

    init(_ name: String, _ predicate: Predicate<ConformanceItem>) {
        self.name = name
        self.predicate = predicate
    }
}

/// Every `#Predicate` construct a store is asked to filter by, over ``ConformanceFixtures``'
/// edge values. None throws in Swift, so each must select exactly what `Predicate.evaluate` does.
enum ConformancePredicates {
    static func all(ownerID: PersistentIdentifier, itemIDs: [PersistentIdentifier]) -> [ConformancePredicate] {
        let paris = "Paris"
        let empty = ""
        let four = 4
        let limit = 2
        let threshold = 1.5
        let float: Float = 0.1
        let day = Date(timeIntervalSinceReferenceDate: 86_400)
        let epoch = Date(timeIntervalSinceReferenceDate: 0)
        let dates = epoch...day
        let counts = -7..<42
        let uuid = ConformanceFixtures.uuids[1]
        let status = ConformanceStatus.active
        let statuses = [ConformanceStatus.done, .planned]
        let names = ["Paris", "café", "Zürich", "nowhere"]
        let tagSet: Set<String> = ["b", "日本"]
        let optionalNotes: [String?] = [nil, "beach"]
        let payload = Data([0, 255, 10])
        let some = Set(itemIDs.prefix(3))
        let single = itemIDs[4]
        let cafe = "cafe\u{301}"
        let ascending = ComparisonResult.orderedAscending
        let same = ComparisonResult.orderedSame
        return [
            // Comparisons on every attribute kind
            .init("String ==", #Predicate { $0.name == paris }),
            .init("String != (canonically equivalent)", #Predicate { $0.name != cafe }),
            .init("String <", #Predicate { $0.name < paris }),
            .init("String >= empty", #Predicate { $0.name >= empty }),
            .init("Int >", #Predicate { $0.count > four }),
            .init("Int <=", #Predicate { $0.count <= four }),
            .init("Int16 ==", #Predicate { $0.small == 3 }),
            .init("UInt32 >", #Predicate { $0.big > 9 }),
            .init("Double == (NaN never equal)", #Predicate { $0.price == $0.price }),
            .init("Double <", #Predicate { $0.price < threshold }),
            .init("Double >= (infinities)", #Predicate { $0.price >= threshold }),
            .init("Float ==", #Predicate { $0.weight == float }),
            .init("Bool key path", #Predicate { $0.isActive }),
            .init("Bool negation", #Predicate { !$0.isActive }),
            .init("Date <", #Predicate { $0.date < day }),
            .init("Date ==", #Predicate { $0.date == epoch }),
            .init("UUID ==", #Predicate { $0.uuid == uuid }),
            .init("Data ==", #Predicate { $0.payload == payload }),
            .init("enum ==", #Predicate { $0.status == status }),
            .init("identifier ==", #Predicate { $0.persistentModelID == single }),
            // Optionals
            .init("optional == nil", #Predicate { $0.notes == nil }),
            .init("optional != nil", #Predicate { $0.notes != nil }),
            .init("optional == value", #Predicate { $0.notes == paris }),
            .init("optional Int == value", #Predicate { $0.rating == four }),
            .init("optional Bool == true", #Predicate { $0.flag == true }),
            .init("optional Date == nil", #Predicate { $0.dueDate == nil }),
            .init("optional UUID == value", #Predicate { $0.token == uuid }),
            .init("nil coalescing", #Predicate { ($0.rating ?? 0) > 1 }),
            .init("optional chaining", #Predicate { $0.notes?.contains("a") == true }),
            .init("flatMap", #Predicate { $0.notes.flatMap { $0.count > 2 } == false }),
            .init("if-let shape (!= nil && force unwrap)", #Predicate { $0.notes != nil && $0.notes!.starts(with: "P") }),
            .init("optional Double NaN", #Predicate { ($0.discount ?? 0) > 0 }),
            // Arithmetic
            .init("Int * and -", #Predicate { ($0.rating ?? 1) * 2 - 1 > 7 }),
            .init("Int % (negative values)", #Predicate { $0.small % 3 == 1 }),
            .init("Int / (truncating)", #Predicate { $0.small / 4 == 1 }),
            .init("Double / and +", #Predicate { $0.price / 2 + 1 > 1 }),
            .init("negation", #Predicate { -$0.small < -5 }),
            .init("ternary", #Predicate { $0.isActive ? $0.count > 2 : $0.name.isEmpty }),
            // Strings
            .init("contains", #Predicate { $0.name.contains("ar") }),
            .init("starts(with:)", #Predicate { $0.name.starts(with: "P") }),
            .init("localizedStandardContains", #Predicate { $0.name.localizedStandardContains("PAR") }),
            .init("caseInsensitiveCompare", #Predicate { $0.name.caseInsensitiveCompare(paris) == same }),
            .init("localizedCompare", #Predicate { $0.name.localizedCompare(paris) == ascending }),
            .init("count", #Predicate { $0.name.count == 5 }),
            .init("isEmpty", #Predicate { $0.name.isEmpty }),
            // Collections
            .init("array contains", #Predicate { $0.tags.contains("a") }),
            .init("array contains(where:)", #Predicate { $0.tags.contains { $0.starts(with: "b") } }),
            .init("array allSatisfy", #Predicate { $0.tags.allSatisfy { $0 != "x" } }),
            .init("array isEmpty", #Predicate { $0.tags.isEmpty }),
            .init("array count", #Predicate { $0.tags.count >= limit }),
            .init("captured array contains property", #Predicate { names.contains($0.name) }),
            .init("captured set in contains(where:)", #Predicate { $0.tags.contains { tagSet.contains($0) } }),
            .init("captured optionals contain optional", #Predicate { !optionalNotes.contains($0.notes) }),
            .init("captured enums contain enum", #Predicate { statuses.contains($0.status) }),
            .init("identifiers contain persistentModelID", #Predicate { some.contains($0.persistentModelID) }),
            .init("closed range contains Date", #Predicate { dates.contains($0.date) }),
            .init("half-open range contains Int", #Predicate { counts.contains($0.count) }),
            // Logic
            .init("&& and ||", #Predicate { $0.isActive && $0.count > 2 || $0.name == empty }),
            .init("! of ||", #Predicate { !($0.notes == paris || $0.price < threshold) }),
            .init("true", #Predicate { _ in true }),
            .init("false", #Predicate { _ in false }),
            // Relationships
            .init("to-one == nil", #Predicate { $0.owner == nil }),
            .init("to-one attribute", #Predicate { $0.owner?.name == "Ann" }),
            .init("to-one identifier", #Predicate { $0.owner?.persistentModelID == ownerID }),
        ]
    }
}
