import Foundation
import Logging
import OpenSwiftData
import RemoteStore
import StoreServer

/// Raw SQLite: `SELECT … WHERE age = ? ORDER BY pk LIMIT 100` on a prepared statement.
final class RawRemoteFetch: RemoteFetchSubject {
    private let users: RawUsers
    private let db: RawConnection
    private let byAge: RawStatement

    init(_ directory: ScratchDirectory) throws {
        users = try RawUsers(directory, unique: true)
        db = try RawConnection(path: directory.file("raw.sqlite").path)
        byAge = try db.prepare("SELECT pk, id, firstName, lastName, age FROM user WHERE age = ? ORDER BY pk LIMIT \(RemoteFetch.limit)")
    }

    func load(_ rows: [UserRow]) throws { try users.load(rows) }

    func fetchHundred(age: Int) throws -> Int {
        byAge.bind(1, age)
        defer { byAge.reset() }
        var checksum = UserChecksum()
        while try byAge.step() {
            let row = UserRow(id: UUID(uuidString: byAge.text(1))!, firstName: byAge.text(2), lastName: byAge.text(3), age: byAge.int(4))
            checksum.add(firstName: row.firstName, age: row.age)
        }
        return checksum.value
    }
}

/// OpenSwiftData with `FetchDescriptor(predicate: #Predicate { $0.age == age })`, limit 100, in a
/// new context per fetch (so every fetch builds its 100 objects): on the default store directly,
/// or through RemoteStore → StoreServer (in this process, on 127.0.0.1) → the same kind of store.
final class OSDRemoteFetch: RemoteFetchSubject {
    private let storeContainer: ModelContainer
    private let container: ModelContainer
    private let server: RunningStoreServer?

    init(remote: Bool, _ directory: ScratchDirectory) throws {
        let schema = Schema([UniqueUser.self])
        storeContainer = try ModelContainer(for: schema, configurations: [ModelConfiguration(url: directory.file("osd.store"))])
        guard remote else {
            container = storeContainer
            server = nil
            return
        }
        var logger = Logger(label: "bench.server")
        logger.logLevel = .critical
        let running = try StoreServer(container: storeContainer, configuration: StoreServerConfiguration(port: 0, tokens: ["bench"]),
                                      logger: logger).start()
        server = running
        container = try ModelContainer(for: schema, configurations: [RemoteStoreConfiguration(url: running.url, token: "bench")])
    }

    deinit { server?.stop() }

    func load(_ rows: [UserRow]) throws {
        let context = ModelContext(storeContainer)
        for row in rows { context.insert(UniqueUser(row)) }
        try context.save()
    }

    func fetchHundred(age: Int) throws -> Int {
        var descriptor = FetchDescriptor<UniqueUser>(predicate: #Predicate { $0.age == age })
        descriptor.fetchLimit = RemoteFetch.limit
        var checksum = UserChecksum()
        for user in try ModelContext(container).fetch(descriptor) {
            checksum.add(firstName: user.firstName, age: user.age)
        }
        return checksum.value
    }
}
