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

    @Test func aResultsObserverOfASecondClientSeesTheFirstClientsSaveWithinASecond() async throws {
        let probe = ObserverProbe()
        let delays = try await probe.timeSaves(["rome", "oslo", "lima"], observing: app, savingThrough: widget)
        // Its history poll runs every 5 s beside an event stream: only the stream is this quick.
        // The quickest of three saves is the stream's delay; the whole suite runs in parallel on
        // a few cores, and a save can wait behind other tests for a thread.
        #expect(try #require(delays.min()) < .seconds(1))
        #expect(await probe.slugs == ["lima", "oslo", "rome"])
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
private actor ObserverProbe {
    private(set) var slugs: [String] = []

    /// Saves a note per slug through `other`, one at a time, and times how long after each save
    /// the observer of `container` shows it (at most 3 s each).
    func timeSaves(_ slugs: [String], observing container: ModelContainer, savingThrough other: ModelContainer) async throws -> [Duration] {
        let observer = try ResultsObserver<Note, Never>(sortBy: [SortDescriptor(\Note.slug)], modelContext: ModelContext(container))
        // Let the observer's event stream connect before the first save.
        try await Task.sleep(for: .milliseconds(300))
        let writer = ModelContext(other)
        writer.author = "widget"
        var delays: [Duration] = []
        for (index, slug) in slugs.enumerated() {
            writer.insert(Note(slug: slug, text: "Flat", rank: index))
            let saved = ContinuousClock.now
            try writer.save()
            while observer.results.count <= index && ContinuousClock.now - saved < .seconds(3) {
                try await Task.sleep(for: .milliseconds(10))
            }
            delays.append(ContinuousClock.now - saved)
        }
        self.slugs = observer.results.map(\.slug)
        return delays
    }
}

/// Written by a notification observer on the saving thread, read after the save returned.
private final class TokenRecorder: @unchecked Sendable {
    var token: DefaultHistoryToken?
}
