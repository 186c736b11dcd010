import Foundation
import OpenSwiftData
import Testing

/// A property's slot is found by the key path object's identity first (a cache with room for a few
/// objects per property), then by key path equality.
@Suite struct KeyPathSlotTests {
    @Test func literalKeyPathsFindTheirPropertiesSlots() {
        let info = ModelTypeInfo.of(Trip.self)
        let found = [info.slot(for: \Trip.name), info.slot(for: \Trip.destination), info.slot(for: \Trip.startDate),
                     info.slot(for: \Trip.budget), info.slot(for: \Trip.notes)]
        #expect(found == [0, 1, 2, 3, 4])
        // Asked again, now answered from the identity cache.
        #expect(info.slot(for: \Trip.notes) == 4)
        #expect(info.slot(for: \Trip.isSelected) == nil)
    }

    /// Key paths built at run time are new objects each time: far more of them than the cache holds
    /// (four per property) are answered, and once it is full a key path it never saw still finds
    /// its slot by equality.
    @Test func keyPathsPastTheCachesRoomAreStillAnswered() {
        let info = ModelTypeInfo.of(Trip.self)
        var slots: Set<Int?> = []
        var kept: [AnyKeyPath] = []
        for _ in 0..<200 {
            let nested = (\Trip.destination).appending(path: \String.count)
            slots.insert(info.slot(for: nested))
            kept.append(nested)
        }
        #expect(Set(kept.map(ObjectIdentifier.init)).count == 200)
        #expect(slots == [nil])
        // Literals at this place in the code are objects the cache has not seen.
        #expect([info.slot(for: \Trip.budget), info.slot(for: \Trip.startDate), info.slot(for: \Trip.isSelected)] == [3, 2, nil])
    }
}
