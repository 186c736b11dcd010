import Foundation
@testable import OpenSwiftData
@testable import OpenSwiftDataCore
import Testing

/// `HistoryObserver` counts the transactions other containers save in its stores. Made outside
/// any actor, the observers read the history on an actor of their own; the tests also read it
/// themselves (`readHistory`), so that what they count does not wait on a busy machine's timer.
@Suite struct HistoryObserverTests {
    private let schema = Schema([HistoryTrip.self, HistoryAccommodation.self])


    @Test func countsAnotherContainersSavesOfObservedModelsOnly() async throws {
        let url = ScratchFiles.store("observer")
        let mine = try ModelContainer(for: schema, configurations: ModelConfiguration(url: url))
        let other = try ModelContainer(for: schema, configurations: ModelConfiguration(url: url))
        let observer = try HistoryObserver(observedModels: [HistoryTrip.self], modelContainer: mine)
        #expect(observer.eventCounter == 0)
        #expect(observer.observedModels.map { ObjectIdentifier($0) } == [ObjectIdentifier(HistoryTrip.self)])

        let elsewhere = ModelContext(other)
        elsewhere.insert(HistoryTrip(name: "Oslo", destination: "Norway"))
        try elsewhere.save()
        _ = observer.readHistory()
        #expect(observer.eventCounter == 1)

        // An accommodation alone is not a trip; the container's own saves are not remote changes.
        elsewhere.insert(HistoryAccommodation(placeName: "Inn", address: "1 Road"))
        try elsewhere.save()
        let here = ModelContext(mine)
        here.insert(HistoryTrip(name: "Bergen", destination: "Norway"))
        try here.save()
        _ = observer.readHistory()
        #expect(observer.eventCounter == 1)
        #expect(observer.historyTokens.count == 1)
    }

    @Test func startsAfterTheTokensItIsGiven() async throws {
        let url = ScratchFiles.store("observer")
        let mine = try ModelContainer(for: schema, configurations: ModelConfiguration(url: url))
        let other = try ModelContainer(for: schema, configurations: ModelConfiguration(url: url))
        let elsewhere = ModelContext(other)
        try saveEach(["a"], in: elsewhere)
        let start = try #require(try history(elsewhere).first?.token)
        try saveEach(["b"], in: elsewhere)

        let observer = try HistoryObserver(historyTokens: [start.storeIdentifier: start], authors: [], modelContainer: mine)
        _ = observer.readHistory()
        #expect(observer.eventCounter == 1)
        #expect((observer.historyTokens[start.storeIdentifier] as? DefaultHistoryToken)?.id == 2)
    }
}
