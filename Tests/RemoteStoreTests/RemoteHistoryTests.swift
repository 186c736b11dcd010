import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// History served by a `StoreServer` to its `RemoteStore` clients: one client's saves read by
/// another through `fetchHistory`, and seen by its `ResultsObserver` through `history/events`.
@Suite final class RemoteHistoryTests {
    let directory: URL
    let server: RunningStoreServer
    let widget: ModelContainer
    let app: ModelContainer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory)
        widget = try remoteContainer(schema: notesSchema, url: server.url)
        app = try remoteContainer(schema: notesSchema, url: server.url)
    }

    deinit { stopInBackground(server, removing: directory) }

    private func widgetContext() -> ModelContext {
        let context = ModelContext(widget)
        context.author = "widget"
        return context
    }

    @Test func aSecondClientReadsTheFirstClientsInsertsUpdatesAndDeletes() throws {
        let writer = widgetContext()
        let note = Note(slug: "paris", text: "Hotel", rank: 1)
        writer.insert(note)
        try writer.save()

        let reader = ModelContext(app)
        let first = try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(first.count == 1)
        let insert = try #require(first.first)
        #expect(insert.author == "widget")
        #expect(insert.changes.count == 1)
        guard case .insert(let inserted as DefaultHistoryInsert<Note>) = insert.changes.first else {
            Issue.record("expected one DefaultHistoryInsert<Note>, got \(insert.changes)")
            return
        }
        #expect(inserted.changedPersistentIdentifier == note.persistentModelID)
        let saved = insert.token

        note.rank = 2
        try writer.save()
        writer.delete(note)
        try writer.save()

        let later = try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > saved }))
        #expect(later.count == 2)
        guard case .update(let update as DefaultHistoryUpdate<Note>) = later.first?.changes.first,
              case .delete(let delete as DefaultHistoryDelete<Note>) = later.last?.changes.first else {
            Issue.record("expected an update then a delete of a Note, got \(later.map(\.changes))")
            return
        }
        #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\Note.rank])
        #expect(delete.changedPersistentIdentifier == note.persistentModelID)
        #expect(later.map(\.transactionIdentifier) == [insert.transactionIdentifier + 1, insert.transactionIdentifier + 2])
    }

    @Test func authorLimitAndNewestFirstRunOnTheServer() throws {
        let writer = widgetContext()
        for index in 1...3 {
            writer.insert(Note(slug: "n\(index)", text: "t", rank: index))
            try writer.save()
        }
        let mine = ModelContext(app)
        mine.author = "app"
        mine.insert(Note(slug: "app", text: "t", rank: 9))
        try mine.save()

        var newest = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == "widget" },
                                                                  sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        newest.fetchLimit = 2
        let transactions = try ModelContext(app).fetchHistory(newest)
        #expect(transactions.map(\.transactionIdentifier) == [3, 2])
        #expect(transactions.allSatisfy { $0.author == "widget" })
    }

    @Test func deletedHistoryExpiresItsTokensForEveryClient() throws {
        let writer = widgetContext()
        writer.insert(Note(slug: "a", text: "t", rank: 1))
        try writer.save()
        writer.insert(Note(slug: "b", text: "t", rank: 2))
        try writer.save()
        let reader = ModelContext(app)
        let first = try #require(try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).first?.token)

        let last = try #require(try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)
        try ModelContext(widget).deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= last }))

        #expect(throws: SwiftDataError.historyTokenExpired) {
            try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > first }))
        }
        #expect(try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
    }

    @Test func didSaveCarriesTheTokenOfTheServersTransaction() throws {
        let writer = widgetContext()
        writer.insert(Note(slug: "a", text: "t", rank: 1))
        let posted = TokenRecorder()
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: writer, queue: nil) { notification in
            posted.token = notification.userInfo?[ModelContext.NotificationKey.historyTokens.rawValue] as? DefaultHistoryToken
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.save()

        let stored = try ModelContext(app).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(posted.token != nil)
        #expect(posted.token == stored.last?.token)
    }

    @MainActor @Test func anotherClientsSaveIsAnnouncedThroughTheEventStream() async throws {
        let listener = try RemoteStore(RemoteStoreConfiguration(name: "listener", schema: notesSchema, url: server.url, token: testToken))
        let heard = AnnouncementCounter()
        let subscription = listener.announceHistory { heard.increment() }
        // The stream's first event, the newest transaction at connection time, says it is open.
        try await waitUntil { heard.count >= 1 }
        let writer = widgetContext()
        writer.insert(Note(slug: "rome", text: "Flat", rank: 1))
        try writer.save()
        try await waitUntil { heard.count >= 2 }
        #expect(heard.count == 2)
        withExtendedLifetime(subscription) {}
    }

    @MainActor @Test func aResultsObserverOfASecondClientSeesTheFirstClientsSaves() async throws {
        let observer = try ResultsObserver<Note, Never>(sortBy: [SortDescriptor(\Note.slug)], modelContext: ModelContext(app))
        let writer = widgetContext()
        for (index, slug) in ["rome", "oslo", "lima"].enumerated() {
            writer.insert(Note(slug: slug, text: "Flat", rank: index))
            try writer.save()
        }
        try await waitUntil { observer.results.count == 3 }
        #expect(observer.results.map(\.slug) == ["lima", "oslo", "rome"])
    }

    @Test func malformedHistoryRequestsGetTypedErrors() async throws {
        let http = RawHTTP(baseURL: server.url)
        let twoTests = try await http.send("/v1/history", json: #"{"conditions":[{"author":{"equal":true},"changedEntities":["Note"]}],"tokens":[],"newestFirst":false}"#)
        #expect(twoTests.status == 400)
        #expect(twoTests.errorCode == "invalidRequest")
        let unknown = try await http.send("/v1/history", json: #"{"conditions":[{"changedEntities":["Ghost"]}],"tokens":[],"newestFirst":false}"#)
        #expect(unknown.status == 404)
        let negative = try await http.send("/v1/history/delete", json: #"{"conditions":[],"tokens":[],"newestFirst":false,"limit":-1}"#)
        #expect(negative.status == 400)
        let foreign = try await http.send("/v1/history", json: #"{"conditions":[],"tokens":[{"elsewhere":3}],"newestFirst":false}"#)
        #expect(foreign.status == 400)
        #expect(foreign.errorCode == "foreignHistoryToken")
        let unauthorized = try await http.send("/v1/history/events", method: .GET, token: nil)
        #expect(unauthorized.status == 401)
    }
}

/// Makes a `ResultsObserver` on an actor of its own (not the main actor other tests share), and
/// times how long after another client's save its results show it.
/// Counts a store's announcements, made on the listener's task and read by the test.
private final class AnnouncementCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
}

/// Returns as soon as `condition` holds. The bound is only there so a broken stream fails the
/// test instead of hanging it; a parallel run on two cores can delay a delivery by seconds.
@MainActor private func waitUntil(_ condition: () -> Bool) async throws {
    let start = ContinuousClock.now
    while !condition() {
        try #require(ContinuousClock.now - start < .seconds(120), "the condition never held")
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Written by a notification observer on the saving thread, read after the save returned.
private final class TokenRecorder: @unchecked Sendable {
    var token: DefaultHistoryToken?
}
