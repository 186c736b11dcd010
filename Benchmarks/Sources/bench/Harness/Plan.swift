/// A timed step of a workload. The raw values name the phases in the report and on the command line.
enum Phase: String, CaseIterable, Codable {
    case insert, fetch, update, delete
    case fetchAll = "fetch-all ×50"
    case lookup = "lookup ×1000"
    case count = "count ×10"
    case load
    case saveOne = "save one"
    case fetchHundred = "fetch 100 ×100"
    case assign = "assign arrays and save"
    case append = "append one by one and save"
    case addAttribute = "add attribute"
    case customStage = "custom stage"
    case insertHistoryOff = "insert, history off"
    case insertHistoryOn = "insert, history on"
    case historyAmongFew = "after a token ×100, of 1,000"
    case historyAmongMany = "after a token ×100, of 100,000"
    case fetchFlat = "fetch flat"
    case fetchHierarchy = "fetch hierarchy"
    case savesPerSecond = "saves/s, 16 clients, 3 servers"
    case firstPage = "first page"
    case filteredPage = "filtered page"
    case deepPage = "page 10,000"
    case syncFirstPush = "first sync: push"
    case syncFirstPull = "first sync: pull"
    case syncPushChanges = "push 1,000 changes"
    case syncPullChanges = "pull 1,000 changes"
    case syncLatencyP50 = "save to arrival, p50"
    case syncLatencyP99 = "save to arrival, p99"

    /// The ratio to raw SQLite that OpenSwiftData's default store should stay under.
    var target: Double {
        switch self {
        case .insert, .fetch, .update, .delete, .fetchAll, .count, .load, .saveOne, .fetchHundred, .assign, .addAttribute, .customStage,
             .insertHistoryOff, .historyAmongFew, .fetchFlat: 2.0
        case .lookup, .append: 1.5
        case .insertHistoryOn: 1.15
        case .historyAmongMany: 1.5
        case .fetchHierarchy: HierarchyBench.target
        // A throughput of OpenSwiftData alone, not a ratio to anything.
        case .savesPerSecond: .infinity
        // Rates and latencies of OpenSwiftData alone; the absolute targets are in the Sync section.
        case .syncFirstPush, .syncFirstPull, .syncPushChanges, .syncPullChanges, .syncLatencyP50, .syncLatencyP99: .infinity
        // A page is a count and a page query, as raw SQLite's, plus HTML; the bar for the
        // first page is absolute (under 100 ms), recorded in Benchmarks/README.md.
        case .firstPage, .filteredPage, .deepPage: 3.0
        }
    }
}

enum Workload: String, CaseIterable, Codable {
    /// Emerge's simple model: insert N users, fetch the Janes sorted by age, rename them, delete all.
    case simple
    /// The same with `#Unique` on the user's id (an upsert on every insert).
    case simpleUnique = "simple-unique"
    /// Emerge's object graph: schools, students and their grades.
    case complex
    /// Lighter's suite: a 16,000-row, 14-column orders table fetched whole 50 times.
    case orders
    /// One row by unique key out of 100,000, and a count with a predicate.
    case lookup
    /// A 100,000-user store opened anew and counted, then one user changed and saved into it.
    case reopen
    /// 100 users out of 100,000 by a predicate, into objects: locally and over HTTP (RemoteStore →
    /// StoreServer on 127.0.0.1 → the default store).
    case remote
    /// A graph built by appending one child at a time, against assigning the arrays at once
    /// (OpenSwiftData only: the ratio is of the two ways, not to raw SQLite).
    case graphAppend = "graph-append"
    /// A lightweight migration adding an attribute to 1,000,000 rows, against `ALTER TABLE`.
    case migrateAdd = "migrate-add"
    /// A custom stage rewriting one attribute of 100,000 models, against one `UPDATE`.
    case migrateCustom = "migrate-custom"
    /// The simple insert with history on, against the same store with history off.
    case historyInsert = "history-insert"
    /// The transactions after a token, in a history of 100,000 against one of 1,000.
    case historyFetch = "history-fetch"
    /// 10,000 models of a three-class hierarchy fetched through the base, against 10,000 flat ones.
    case hierarchyFetch = "hierarchy-fetch"
    /// Saves per second of 16 RemoteStore clients spread over three StoreServers on one PostgreSQL
    /// database, inserting into a `#Unique` entity.
    case threeServers = "three-servers"
    /// Pages of a 1,000,000-row entity as the data browser serves them, against the same count and
    /// page query in raw SQLite.
    case browse
    /// StoreSync: a first sync of 100,000 users each way, 1,000 changes each way, and the latency
    /// from a save on one client to its arrival on another under continuous sync.
    case sync

    var phases: [Phase] {
        switch self {
        case .simple, .simpleUnique, .complex: [.insert, .fetch, .update, .delete]
        case .orders: [.fetchAll]
        case .lookup: [.lookup, .count]
        case .reopen: [.load, .saveOne]
        case .remote: [.fetchHundred]
        case .graphAppend: [.assign, .append]
        case .migrateAdd: [.addAttribute]
        case .migrateCustom: [.customStage]
        case .historyInsert: [.insertHistoryOff, .insertHistoryOn]
        case .historyFetch: [.historyAmongFew, .historyAmongMany]
        case .hierarchyFetch: [.fetchFlat, .fetchHierarchy]
        case .threeServers: [.savesPerSecond]
        case .browse: [.firstPage, .filteredPage, .deepPage]
        case .sync: [.syncFirstPush, .syncFirstPull, .syncPushChanges, .syncPullChanges, .syncLatencyP50, .syncLatencyP99]
        }
    }

    /// For a workload that compares two ways of OpenSwiftData with each other rather than with raw
    /// SQLite: its baseline phase and the phase measured against it (whose `target` applies).
    var pair: (baseline: Phase, measured: Phase)? {
        isPaired ? (phases[0], phases[1]) : nil
    }

    var isPaired: Bool { [.graphAppend, .historyInsert, .historyFetch, .hierarchyFetch].contains(self) }

    var sizes: [Int] {
        switch self {
        case .simple, .simpleUnique: [1_000, 10_000, 100_000]
        case .complex: [1_000, 10_000]
        case .orders: [Orders.rowCount]
        case .lookup: [Lookup.rowCount]
        case .reopen: [Reopen.rowCount]
        case .remote: [RemoteFetch.rowCount]
        case .graphAppend: GraphAppend.shapes.keys.sorted()
        case .migrateAdd: [Migrate.addedRows]
        case .migrateCustom: [Migrate.rewrittenRows]
        case .historyInsert, .hierarchyFetch: [10_000]
        case .historyFetch: [100_000]
        case .threeServers: [ThreeServers.clients]
        case .browse: [Browse.rowCount]
        case .sync: [SyncBench.rowCount]
        }
    }

    /// Why a contender is left out of this workload and size, or nil.
    func skipReason(_ contender: Contender, size: Int) -> String? {
        if let reason = postgresSkipReason(contender) { return reason }
        switch contender {
        case .rawSQLite where self.isPaired, .grdbRecords where self.isPaired, .grdbCodable where self.isPaired, .osdRemote where self.isPaired:
            return "not run: the workload compares two ways of OpenSwiftData with each other"
        case .osdMemory where self == .historyInsert:
            return "not run: InMemoryStore always keeps history"
        case .osdRows where self == .simpleUnique:
            return "not run: the sample row store keeps no uniqueness constraints"
        case .osdRows where ![.simple, .complex, .orders].contains(self):
            return "not run: the sample row store is measured against the in-memory store on simple, complex and orders"
        case .osdJSON where self == .historyFetch:
            return "not run: JSONStore rewrites its file on each of the 100,000 saves"
        case .grdbRecords where self.isMigration, .grdbCodable where self.isMigration, .osdMemory where self.isMigration:
            return "not run: migrations compare OpenSwiftData's stores with the same change in SQL"
        case .osdJSON where self == .migrateAdd:
            return "not run: over the 20,000 models JSONStore is made for"
        case .osdRemote where self != .remote:
            return "not run: the remote store is measured on the remote workload"
        case .grdbRecords where self == .remote, .grdbCodable where self == .remote, .osdMemory where self == .remote,
             .osdJSON where self == .remote:
            return "not run: the remote workload compares HTTP with the local store and raw SQLite"
        case _ where self == .sync && contender != .osdSQLite:
            return "not run: sync is measured on OpenSwiftData's default store"
        case _ where self == .browse && contender != .rawSQLite && contender != .osdSQLite:
            return "not run: the browser is measured on the default store against raw SQLite"
        case .osdMemory where self == .lookup:
            return "not run: no index, each lookup scans all 100,000 snapshots (over 300 s)"
        case .osdMemory where self == .reopen:
            return "not run: an in-memory store has no file to reopen"
        case .osdJSON where self == .lookup:
            return "not run: no index, each lookup scans all 100,000 snapshots"
        case .osdJSON where self != .reopen && size * (self == .complex ? 6 : 1) > 20_000:
            return "not run: over the 20,000 models JSONStore is made for"
        default:
            return nil
        }
    }

    /// Runs per size, chosen so that the whole command stays within 15 minutes on two cores.
    func runs(size: Int) -> Int {
        switch self {
        case .simple, .simpleUnique: size >= 100_000 ? 3 : size >= 10_000 ? 5 : 7
        case .complex: size >= 10_000 ? 3 : 5
        case .orders: 3
        case .lookup, .reopen, .remote, .graphAppend: 5
        case .migrateAdd, .migrateCustom: 3
        case .historyInsert, .historyFetch, .hierarchyFetch: 5
        case .threeServers: 3
        case .browse: 5
        case .sync: 3
        }
    }

    var isMigration: Bool { self == .migrateAdd || self == .migrateCustom }
}

enum Contender: String, CaseIterable, Codable {
    case rawSQLite = "raw SQLite"
    case grdbRecords = "GRDB records"
    case grdbCodable = "GRDB Codable"
    case osdSQLite = "OSD SQLite"
    case osdMemory = "OSD in-memory"
    /// A store written outside the library on its public API: `DataStoreTesting`'s `SampleRowStore`.
    case osdRows = "OSD custom rows"
    case osdJSON = "OSD JSONStore"
    case osdRemote = "OSD remote"
    case postgresRaw = "PG raw"
    case osdPostgres = "OSD PostgreSQL"

    /// The name used on the command line.
    var key: String {
        switch self {
        case .rawSQLite: "raw"
        case .grdbRecords: "grdb"
        case .grdbCodable: "grdb-codable"
        case .osdSQLite: "osd"
        case .osdMemory: "osd-memory"
        case .osdRows: "osd-rows"
        case .osdJSON: "osd-json"
        case .osdRemote: "osd-remote"
        case .postgresRaw: "pg-raw"
        case .osdPostgres: "osd-pg"
        }
    }

    init?(key: String) {
        guard let found = Contender.allCases.first(where: { $0.key == key }) else { return nil }
        self = found
    }
}
