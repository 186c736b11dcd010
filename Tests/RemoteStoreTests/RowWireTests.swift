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

    /// The server writes rows itself (`json()`); what it writes reads back as `JSONEncoder`'s
    /// form of the same answer does.
    @Test func theServersOwnJSONReadsBackAsTheEncodersDoes() throws {
        let note = try PersistentIdentifier.identifier(for: "notes", entityName: "Note", primaryKey: Int64(7))
        let stranger = try PersistentIdentifier.identifier(for: "other", entityName: "Note", primaryKey: Int64(8))
        let folder = try PersistentIdentifier.identifier(for: "notes", entityName: "Folder", primaryKey: Int64(2))
        let tricky = "quote \" slash \\ / tab \t line \n bell \u{07} é 👩‍👩‍👧"
        let answer = RowsResponse(layout: Self.layout, storeIdentifier: "notes", rows: [
            DataStoreRow(persistentIdentifier: note, values: ["a", tricky, 3, Date(timeIntervalSinceReferenceDate: 10.5), Double.nan, folder]),
            DataStoreRow(persistentIdentifier: stranger, values: ["b", "", -4, Date(timeIntervalSinceReferenceDate: -1e9), 1e-300, nil]),
            DataStoreRow(persistentIdentifier: note, values: ["c", "x", Int.max, Date(timeIntervalSinceReferenceDate: 0), -Double.infinity, Optional<PersistentIdentifier>.none]),
        ])
        let written = try answer.json()
        var reader = RowsReader(written, layout: Self.layout)
        let read = reader.read()
        #expect(read?.count == 3)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix(#"{"entityName":"Note","storeIdentifier":"notes","properties":["slug","text","rank","created","score","folder"],"rows":[[7,"a","quote \" slash \\ \/ tab \t line \n bell \u0007 é 👩‍👩‍👧",3,10.5,"nan",{"#))
        #expect(text.hasSuffix(#"[7,"c","x",9223372036854775807,0,"-infinity",null]]}"#))

        let fromWriter = try RowsResponse.decodeRows(from: written, layout: Self.layout)
        let fromEncoder = try RowsResponse.decodeRowsThroughCodable(from: WireCoding.encoder().encode(answer), layout: Self.layout)
        #expect(described(fromWriter) == described(fromEncoder))
        #expect(fromWriter.map(\.persistentIdentifier) == [note, stranger, note])
        #expect(fromWriter[0].values[1] as? String == tricky)
        #expect(fromWriter[1].values[4] as? Double == 1e-300)
        #expect(fromWriter[2].values[2] as? Int == Int.max)
    }

    /// Each value type the reader reads itself, and the escapes, spacing and spellings JSON
    /// allows, read as `JSONDecoder` reads them.
    @Test(arguments: [
        #"{"entityName":"WireSample","storeIdentifier":"s","properties":["flag","id","ratio","big","maybe","tags","blob","when"],"rows":[[1,true,"E621E1F8-C36C-495A-93FC-0C247A3E6E5F",0.5,-9007199254740993,null,["a","b"],"AAE=",1e3]]}"#,
        #"{ "entityName" : "WireSample" , "storeIdentifier" : "s" , "properties" : [ "flag" , "id" , "ratio" , "big" , "maybe" , "tags" , "blob" , "when" ] , "rows" : [ [ "k" , false , "E621E1F8-C36C-495A-93FC-0C247A3E6E5F" , "-infinity" , 0 , "\u00e9\ud83d\ude00\/\b" , [ ] , "" , -0.25E-2 ] ] }"#,
        #"{"entityName":"WireSample","storeIdentifier":"s","properties":["flag","id","ratio","big","maybe","tags","blob","when"],"rows":[]}"#,
    ])
    func theReaderReadsEachValueAsJSONDecoderDoes(body: String) throws {
        let layout = DataStoreRowLayout(for: WireSample.self)
        var reader = RowsReader(Data(body.utf8), layout: layout)
        let read = reader.read()
        let fast = try #require(read)
        let slow = try RowsResponse.decodeRowsThroughCodable(from: Data(body.utf8), layout: layout)
        #expect(described(fast) == described(slow))
        #expect(fast.count == (body.contains(#""rows":[]"#) ? 0 : 1))
    }

    /// Numbers JSON does not allow are not read leniently: they reach `JSONDecoder`, which refuses them.
    @Test(arguments: ["01", "1.", ".5", "+1", "1e", "--1", "1 2", "- 1"])
    func malformedNumbersFailToDecode(number: String) throws {
        let body = #"{"entityName":"Note","storeIdentifier":"notes","properties":["slug","text","rank","created","score","folder"],"rows":[[1,"a","x",\#(number),10,0,null]]}"#
        var reader = RowsReader(Data(body.utf8), layout: Self.layout)
        let read = reader.read()
        #expect(read == nil)
        #expect(throws: (any Error).self) { try RowsResponse.decodeRows(from: Data(body.utf8), layout: Self.layout) }
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

/// Each value as text, optionals and all, to compare two decodings of the same rows.
private func described(_ rows: [DataStoreRow]) -> [String] {
    rows.map { row in "\(row.persistentIdentifier) " + row.values.map { "\($0.map { "\($0)" } ?? "nil")" }.joined(separator: "|") }
}

/// One property of each type the rows reader reads itself, and some it leaves to `JSONDecoder`.
@Model final class WireSample {
    var flag: Bool
    var id: UUID
    var ratio: Float
    var big: Int64
    var maybe: String?
    var tags: [String]
    var blob: Data
    var when: Date?

    init(flag: Bool, id: UUID, ratio: Float, big: Int64, maybe: String?, tags: [String], blob: Data, when: Date?) {
        self.flag = flag
        self.id = id
        self.ratio = ratio
        self.big = big
        self.maybe = maybe
        self.tags = tags
        self.blob = blob
        self.when = when
    }
}
