import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

/// Unique on a text and a number together: an insert's `ON CONFLICT` names a digest and a column.
@Model final class PGSlot {
    #Unique<PGSlot>([\.room, \.night])
    var room: String
    var night: Int
    var guest: String

    init(room: String, night: Int, guest: String) {
        self.room = room
        self.night = night
        self.guest = guest
    }
}

/// Two constraints, one over `Data`: an insert looks up the model it equals on either.
@Model final class PGBadge {
    #Unique<PGBadge>([\.label], [\.photo, \.size])
    var label: String
    var photo: Data
    var size: Int
    var note: String

    init(label: String, photo: Data, size: Int, note: String) {
        self.label = label
        self.photo = photo
        self.size = size
        self.note = note
    }
}

/// Unique text is indexed by its digest, so that values longer than a b-tree entry fit; what the
/// conformance kit's long-value check cannot see: the indexes themselves, and a database whose
/// unique index keyed the column itself, as releases before did.
@Suite struct PostgresUniqueDigestTests {
    private func container(_ url: String) throws -> ModelContainer {
        try ModelContainer(for: PGTicket.self, configurations: try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: url))
    }

    private func strings(_ sql: String, _ url: String) throws -> [String] {
        try TestDatabase.strings(sql, in: try PostgresStoreConfiguration(url: url))
    }

    private func indexes(_ url: String, of table: String = "PGTicket") throws -> [String] {
        try strings("SELECT indexdef FROM pg_indexes WHERE tablename = '\(table)' ORDER BY indexname", url)
    }

    private func container(_ url: String, for types: [any PersistentModel.Type]) throws -> ModelContainer {
        let schema = Schema(types)
        return try ModelContainer(for: schema, configurations: [try PostgresStoreConfiguration(schema: schema, url: url)])
    }

    /// Bytes that PostgreSQL's compression cannot shrink below a b-tree entry's limit.
    private static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// How PostgreSQL prints an index key on a text column's NFC (`PostgresCanonicalText`).
    private static func nfc(_ column: String) -> String {
        "(\nCASE\n    WHEN (octet_length(\(column)) = length(\(column))) THEN \(column)\n    ELSE NORMALIZE(\(column), NFC)\nEND)"
    }

    private static let indexes = [
        #"CREATE UNIQUE INDEX "PGTicket_pkey" ON public."PGTicket" USING btree ("Z_PK")"#,
        #"CREATE INDEX "osd_PGTicket_lookupnfc_code" ON public."PGTicket" USING hash ("# + nfc("code") + ")",
        #"CREATE UNIQUE INDEX "osd_PGTicket_uniquenfc_code" ON public."PGTicket" USING btree (osd_nfc_text_digest(code))"#,
    ]

    @Test func aUniqueTextColumnIsIndexedByItsDigestAndLookedUpThroughAHashIndex() throws {
        let url = try TestDatabase.makeDatabase()
        _ = try container(url)
        #expect(try indexes(url) == Self.indexes)
    }

    @Test func anIndexOnTextKeysItsNFC() throws {
        let url = try TestDatabase.makeDatabase()
        let context = ModelContext(try container(url, for: [PGShelf.self]))
        for (label, rank) in [("cafe\u{301}", 1), ("caf\u{e9}", 2), ("tea", 3)] { context.insert(PGShelf(label: label, rank: rank)) }
        try context.save()
        let label = "caf\u{e9}"
        #expect(try context.fetch(FetchDescriptor<PGShelf>(predicate: #Predicate { $0.label == label }, sortBy: [SortDescriptor(\.rank)])).map(\.rank) == [1, 2])
        #expect(try indexes(url, of: "PGShelf") == [
            #"CREATE UNIQUE INDEX "PGShelf_pkey" ON public."PGShelf" USING btree ("Z_PK")"#,
            #"CREATE INDEX "osd_PGShelf_indexnfc_label" ON public."PGShelf" USING btree ("# + Self.nfc("label") + ")",
            #"CREATE INDEX "osd_PGShelf_indexnfc_label_rank" ON public."PGShelf" USING btree ("# + Self.nfc("label") + ", rank)",
        ])
    }

    @Test func textIsStoredAsGivenAndMergesWithItsCanonicalEquivalent() throws {
        let url = try TestDatabase.makeDatabase()
        let container = try container(url)
        let writer = ModelContext(container)
        writer.insert(PGTicket(code: "cafe\u{301}", seats: 1))
        try writer.save()
        #expect(try strings(#"SELECT encode(convert_to(code, 'UTF8'), 'hex') FROM "PGTicket""#, url) == ["63616665cc81"])
        let merging = ModelContext(container)
        merging.insert(PGTicket(code: "caf\u{e9}", seats: 2))
        try merging.save()
        #expect(try strings(#"SELECT encode(convert_to(code, 'UTF8'), 'hex') || ' ' || seats FROM "PGTicket""#, url) == ["636166c3a9 2"])
    }

    @Test func aDatabaseWhoseUniqueIndexKeyedTheColumnGetsTheDigestIndexAsItOpens() throws {
        let url = try TestDatabase.makeDatabase()
        let context = ModelContext(try container(url))
        context.insert(PGTicket(code: "A1", seats: 1))
        try context.save()
        // As releases before this one left the database: a b-tree on the column, no digest function.
        for statement in [#"DROP INDEX "osd_PGTicket_uniquenfc_code", "osd_PGTicket_lookupnfc_code""#, "DROP FUNCTION osd_text_digest(text)",
                          "DROP FUNCTION osd_nfc_text_digest(text)",
                          #"CREATE UNIQUE INDEX "osd_PGTicket_unique_code" ON "PGTicket" ("code")"#] {
            _ = try strings(statement, url)
        }
        let container = try container(url)
        #expect(try indexes(url) == Self.indexes)

        let long = String(repeating: "x", count: 1_000_000)
        let writer = ModelContext(container)
        writer.insert(PGTicket(code: "A1", seats: 2))
        writer.insert(PGTicket(code: long, seats: 3))
        try writer.save()
        let merging = ModelContext(container)
        merging.insert(PGTicket(code: long, seats: 4))
        try merging.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<PGTicket>(sortBy: [SortDescriptor(\.seats)]))
        #expect(stored.map(\.seats) == [2, 4], "inserts equal on a stored code, short or long, update the stored model")
        #expect(stored.map(\.code.utf8.count) == [2, 1_000_000])
    }

    @Test func aLongTextInAConstraintWithANumberMergesOnlyWithItsEqual() throws {
        let url = try TestDatabase.makeDatabase()
        let container = try container(url, for: [PGSlot.self])
        let room = String(decoding: Self.noise(300_000, seed: 1).map { 0x61 + $0 % 26 }, as: UTF8.self)
        let first = ModelContext(container)
        first.insert(PGSlot(room: room, night: 1, guest: "Ann"))
        try first.save()
        let second = ModelContext(container)
        second.insert(PGSlot(room: room, night: 1, guest: "Bo"))
        second.insert(PGSlot(room: room, night: 2, guest: "Cy"))
        try second.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<PGSlot>(sortBy: [SortDescriptor(\.night)]))
        #expect(stored.map(\.guest) == ["Bo", "Cy"])
        #expect(stored.allSatisfy { $0.room == room })
        #expect(try indexes(url, of: "PGSlot") == [
            #"CREATE UNIQUE INDEX "PGSlot_pkey" ON public."PGSlot" USING btree ("Z_PK")"#,
            #"CREATE INDEX "osd_PGSlot_lookupnfc_room" ON public."PGSlot" USING hash ("# + Self.nfc("room") + ")",
            #"CREATE UNIQUE INDEX "osd_PGSlot_uniquenfc_room_night" ON public."PGSlot" USING btree (osd_nfc_text_digest(room), night)"#,
        ])
    }

    @Test func anInsertEqualOnEitherOfTwoConstraintsOverLongValuesUpdatesTheStoredModel() throws {
        let url = try TestDatabase.makeDatabase()
        let container = try container(url, for: [PGBadge.self])
        let labels = (10..<13).map { String(decoding: Self.noise(300_000, seed: $0).map { 0x61 + $0 % 26 }, as: UTF8.self) }
        let photos = (20..<22).map { Data(Self.noise(300_000, seed: $0)) }
        let a = PGBadge(label: labels[0], photo: photos[0], size: 1, note: "a")
        let b = PGBadge(label: labels[1], photo: photos[0], size: 2, note: "b")
        let byLabel = PGBadge(label: labels[0], photo: photos[1], size: 9, note: "c")
        let byPhoto = PGBadge(label: labels[2], photo: photos[0], size: 2, note: "d")
        // Each in a save of its own: a merge is with a stored model.
        for model in [a, b, byLabel, byPhoto] {
            let context = ModelContext(container)
            context.insert(model)
            try context.save()
        }

        let stored = try ModelContext(container).fetch(FetchDescriptor<PGBadge>(sortBy: [SortDescriptor(\.size)]))
        #expect(stored.map(\.note) == ["d", "c"])
        #expect(stored.map(\.label) == [labels[2], labels[0]])
        #expect(stored.map(\.photo) == [photos[0], photos[1]])
        #expect(byLabel.persistentModelID == a.persistentModelID, "equal on the long label")
        #expect(byPhoto.persistentModelID == b.persistentModelID, "equal on the long photo and the size")
        #expect(try indexes(url, of: "PGBadge") == [
            #"CREATE UNIQUE INDEX "PGBadge_pkey" ON public."PGBadge" USING btree ("Z_PK")"#,
            #"CREATE INDEX "osd_PGBadge_lookup_photo" ON public."PGBadge" USING hash (photo)"#,
            #"CREATE INDEX "osd_PGBadge_lookupnfc_label" ON public."PGBadge" USING hash ("# + Self.nfc("label") + ")",
            #"CREATE UNIQUE INDEX "osd_PGBadge_uniquedigest_photo_size" ON public."PGBadge" USING btree (sha256(photo), size)"#,
            #"CREATE UNIQUE INDEX "osd_PGBadge_uniquenfc_label" ON public."PGBadge" USING btree (osd_nfc_text_digest(label))"#,
        ])
    }
}

/// Indexed on text, alone and with a number.
@Model final class PGShelf {
    #Index<PGShelf>([\.label], [\.label, \.rank])
    var label: String
    var rank: Int

    init(label: String, rank: Int) {
        self.label = label
        self.rank = rank
    }
}
