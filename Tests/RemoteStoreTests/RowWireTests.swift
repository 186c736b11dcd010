import Foundation
import OpenSwiftData
import StoreServer
import StoreWire
import Testing

/// `rows`: the server answers a query with each model's key and values in its type's property
/// order, and RemoteStore reads them back as the models' values.
@Suite final class RowWireTests {
    let directory: URL
    let server: RunningStoreServer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory)
    }

    deinit { stopInBackground(server, removing: directory) }

    @Test func theServerSendsKeysAndValuesInPropertyOrder() async throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        let folder = Folder(title: "Home")
        context.insert(Note(slug: "a", text: "first", rank: 1, created: Date(timeIntervalSinceReferenceDate: 5), folder: folder))
        try context.save()

        let reply = try await RawHTTP(baseURL: server.url).send(StoreAPI.rows, json: #"{"query":{"entityName":"Note","sortBy":[]}}"#)
        #expect(reply.status == 200)
        let body = try #require(reply.json as? [String: Any])
        #expect(body["entityName"] as? String == "Note")
        #expect(body["properties"] as? [String] == ["slug", "text", "rank", "created", "score", "folder"])
        let rows = try #require(body["rows"] as? [[Any]])
        #expect(rows.count == 1)
        #expect(rows[0].count == 7)
        #expect((rows[0][0] as? NSNumber)?.intValue == 1)
        #expect(rows[0][1] as? String == "a")
        #expect((rows[0][4] as? NSNumber)?.doubleValue == 5)
        let folderKey = (((rows[0][6] as? [String: Any])?["implementation"] as? [String: Any])?["primaryKey"] as? NSNumber)?.intValue
        #expect(folderKey == 1)
    }

    @Test func remoteFetchesReadRowsBackIntoModels() throws {
        let writer = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        let folder = Folder(title: "Home")
        let nan = Note(slug: "b", text: "second", rank: 2, folder: folder)
        nan.score = .nan
        writer.insert(Note(slug: "a", text: "first", rank: 1))
        writer.insert(nan)
        try writer.save()

        let reader = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        let notes = try reader.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.rank)]))
        #expect(notes.map(\.slug) == ["a", "b"])
        #expect(notes[1].persistentModelID == nan.persistentModelID)
        #expect(notes[0].folder == nil)
        #expect(notes[1].folder?.title == "Home")
        #expect(notes[1].folder?.notes.map(\.slug) == ["b"])
        #expect(notes[1].score.isNaN)
        #expect(notes[1].created == Date(timeIntervalSince1970: 1_000_000))
    }

    static let layout = DataStoreRowLayout(for: Note.self)

    @Test func rowsDecodeWithTheAnswersStoreAndKeys() throws {
        let body = #"{"entityName":"Note","storeIdentifier":"notes","properties":["slug","text","rank","created","score","folder"],"rows":[[7,"a","x",3,10,"nan",null]]}"#
        let rows = try RowsResponse.decodeRows(from: Data(body.utf8), layout: Self.layout)
        #expect(rows.map(\.persistentIdentifier) == [try PersistentIdentifier.identifier(for: "notes", entityName: "Note", primaryKey: Int64(7))])
        #expect(rows[0].values[0] as? String == "a")
        #expect(rows[0].values[2] as? Int == 3)
        #expect(rows[0].values[3] as? Date == Date(timeIntervalSinceReferenceDate: 10))
        #expect((rows[0].values[4] as? Double)?.isNaN == true)
        #expect(rows[0].values[5] as? PersistentIdentifier == nil)
    }

    @Test(arguments: [
        #"{"entityName":"Note","storeIdentifier":"notes","properties":["slug"],"rows":[]}"#,
        #"{"entityName":"Folder","storeIdentifier":"notes","properties":["slug","text","rank","created","score","folder"],"rows":[]}"#,
        #"{"entityName":"Note","storeIdentifier":"notes","properties":["slug","text","rank","created","score","folder"],"rows":[[1,"a","x",3,10,0]]}"#,
        #"{"entityName":"Note","storeIdentifier":"notes","properties":["slug","text","rank","created","score","folder"],"rows":[[1,null,"x",3,10,0,null]]}"#,
        #"{"entityName":"Note","storeIdentifier":"notes","properties":["slug","text","rank","created","score","folder"],"rows":[[1,"a","x","three",10,0,null]]}"#,
    ])
    func anAnswerOfOtherPropertiesOrValuesFailsToDecode(body: String) throws {
        #expect(throws: DecodingError.self) { try RowsResponse.decodeRows(from: Data(body.utf8), layout: Self.layout) }
    }
}
