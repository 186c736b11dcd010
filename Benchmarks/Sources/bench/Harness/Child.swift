import Foundation

/// `bench --child WORKLOAD CONTENDER SIZE RUNS [FETCHES]`: runs one contender on one workload and
/// size in this process, so that its peak memory is its own, and prints a ``ChildReport`` as JSON.
/// FETCHES replaces the 50 whole fetches of an orders run, to profile it under callgrind in minutes.
enum Child {
    static func main(_ arguments: [String]) throws {
        if arguments == ["idle"] {
            // The memory every child has before it runs anything: the binary and its libraries.
            FileHandle.standardOutput.write(try JSONEncoder().encode(ChildReport(peakResidentKiB: peakResidentKiB())))
            return
        }
        guard arguments.count == 4 || arguments.count == 5, let workload = Workload(rawValue: arguments[0]), let contender = Contender(key: arguments[1]),
              let size = Int(arguments[2]), let runs = Int(arguments[3]) else {
            throw UsageError("usage: bench --child WORKLOAD CONTENDER SIZE RUNS [FETCHES]")
        }
        let fetches = arguments.count == 5 ? Int(arguments[4]) ?? Orders.fetchesPerRun : Orders.fetchesPerRun
        var report = try run(workload, contender, size: size, runs: runs, fetches: fetches)
        report.peakResidentKiB = peakResidentKiB()
        FileHandle.standardOutput.write(try JSONEncoder().encode(report))
    }

    static func run(_ workload: Workload, _ contender: Contender, size: Int, runs: Int, fetches: Int) throws -> ChildReport {
        switch workload {
        case .simple, .simpleUnique:
            let unique = workload == .simpleUnique
            return try Driver.simple(size: size, runs: runs) { directory in try users(contender, directory, unique: unique) }
        case .remote:
            return try Driver.remote(runs: runs) { directory in
                switch contender {
                case .rawSQLite: try RawRemoteFetch(directory)
                case .osdSQLite: try OSDRemoteFetch(remote: false, directory)
                case .osdRemote: try OSDRemoteFetch(remote: true, directory)
                default: throw UsageError("the remote workload runs raw, osd and osd-remote")
                }
            }
        case .browse:
            return try Driver.browse(runs: runs) { directory in
                switch contender {
                case .rawSQLite: try RawBrowse(directory)
                case .osdSQLite: try OSDBrowse(directory)
                default: throw UsageError("the browse workload runs raw and osd")
                }
            }
        case .sync:
            guard contender == .osdSQLite else { throw UsageError("sync runs osd only") }
            return try Driver.sync(size: size, runs: runs) { directory in try OSDSync(directory) }
        case .graphAppend:
            return try Driver.graphAppend(size: size, runs: runs) { directory in
                try contender.osdSubject((any GraphAppendSubject).self) { try OSDGraphAppend($0, directory) }
            }
        case .migrateAdd, .migrateCustom:
            return try Driver.migrate(workload, size: size, runs: runs) { directory in
                try contender.subject((any MigrateSubject).self, raw: { try RawMigrate(directory) }, grdbRecords: { throw UsageError(migrationContenders) },
                                      grdbCodable: { throw UsageError(migrationContenders) }, osd: { try OSDMigrate($0, directory) })
            }
        case .historyInsert:
            return try Driver.historyInsert(size: size, runs: runs) { directory, keepsHistory in
                try contender.osdSubject((any HistoryInsertSubject).self) { try OSDHistoryInsert($0, directory, keepsHistory: keepsHistory) }
            }
        case .historyFetch:
            return try Driver.historyFetch(size: size, runs: runs) { directory in
                try contender.osdSubject((any HistoryFetchSubject).self) { try OSDHistoryFetch($0, directory) }
            }
        case .hierarchyFetch:
            return try Driver.hierarchyFetch(size: size, runs: runs) { directory in
                try contender.osdSubject((any HierarchyFetchSubject).self) { try OSDHierarchyFetch($0, directory) }
            }
        case .threeServers:
            guard contender == .osdPostgres else { throw UsageError("three-servers runs osd-pg only") }
            return try Driver.threeServers(runs: runs) { try OSDThreeServers() }
        case .lookup:
            return try Driver.lookup(runs: runs) { directory in try users(contender, directory, unique: true) }
        case .complex:
            return try Driver.complex(size: size, runs: runs) { directory in
                try contender.subject((any ComplexSubject).self, raw: { try RawSchools(directory) },
                                      grdbRecords: { try GRDBSchools<SchoolRecord, StudentRecord, GradeRecord>(directory) },
                                      grdbCodable: { try GRDBSchools<SchoolCodable, StudentCodable, GradeCodable>(directory) },
                                      osd: { try OSDSchools($0, directory) })
            }
        case .reopen:
            return try Driver.reopen(runs: runs) { directory in
                try contender.subject((any ReopenSubject).self, raw: { try RawReopen(directory) },
                                      grdbRecords: { try GRDBReopen<UserRecord>(directory) },
                                      grdbCodable: { try GRDBReopen<UserCodable>(directory) },
                                      osd: { try OSDReopen($0, directory) })
            }
        case .orders:
            return try Driver.orders(runs: runs, fetches: fetches) { directory in
                try contender.subject((any OrdersSubject).self, raw: { try RawOrders(directory) },
                                      grdbRecords: { try GRDBOrders<OrderRecord>(directory) },
                                      grdbCodable: { try GRDBOrders<OrderCodable>(directory) },
                                      osd: { try OSDOrders($0, directory) })
            }
        }
    }

    private static func users(_ contender: Contender, _ directory: ScratchDirectory, unique: Bool) throws -> any SimpleSubject & LookupSubject {
        if contender.isPostgres { return try postgresUsers(contender, unique: unique) }
        return try contender.subject((any SimpleSubject & LookupSubject).self, raw: { try RawUsers(directory, unique: unique) },
                                     grdbRecords: { try GRDBUsers<UserRecord>(directory, unique: unique) },
                                     grdbCodable: { try GRDBUsers<UserCodable>(directory, unique: unique) },
                                     osd: { try OSDUsers($0, directory, unique: unique) })
    }
}

extension Contender {
    /// The contender's subject for a workload that every contender but the remote store runs: one
    /// builder per library, the OpenSwiftData one told which store to use.
    func subject<Subject>(_: Subject.Type, raw: () throws -> Subject, grdbRecords: () throws -> Subject, grdbCodable: () throws -> Subject,
                          osd: (OSDStore) throws -> Subject) throws -> Subject {
        switch self {
        case .rawSQLite: try raw()
        case .grdbRecords: try grdbRecords()
        case .grdbCodable: try grdbCodable()
        case .osdSQLite: try osd(.sqlite)
        case .osdMemory: try osd(.inMemory)
        case .osdRows: try osd(.sampleRows)
        case .osdJSON: try osd(.json)
        case .osdRemote: throw UsageError(remoteOnly)
        case .postgresRaw, .osdPostgres: throw UsageError(postgresOnly)
        }
    }
}

extension Contender {
    /// The subject of a workload that only OpenSwiftData's local stores run.
    func osdSubject<Subject>(_ type: Subject.Type, _ osd: (OSDStore) throws -> Subject) throws -> Subject {
        try subject(type, raw: { throw UsageError(osdOnly) }, grdbRecords: { throw UsageError(osdOnly) }, grdbCodable: { throw UsageError(osdOnly) }, osd: osd)
    }
}

private let remoteOnly = "osd-remote runs the remote workload only"
private let migrationContenders = "the migrate workloads run raw, osd and osd-json"
private let postgresOnly = "pg-raw and osd-pg run simple, simple-unique, lookup and (osd-pg) three-servers"
private let osdOnly = "graph-append, history-insert, history-fetch and hierarchy-fetch run OpenSwiftData's stores only"

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
