import Foundation
import OpenSwiftData
import StoreSync

/// Three clients and a server running a ``SyncStep`` program. Each client has an engine on the
/// server and one on a port nothing listens on (offline); both share the client's store and
/// state, as one app would across network changes.
final class SyncWorld {
    final class Client {
        let online: SyncClient
        var offline: SyncEngine
        var isOffline = false

        init(_ name: String, server: URL, directory: URL) throws {
            online = try SyncClient(name, server: server, directory: directory)
            offline = try Self.offlineEngine(online.container)
        }

        static func offlineEngine(_ container: ModelContainer) throws -> SyncEngine {
            var configuration = SyncConfiguration(server: URL(string: "http://127.0.0.1:1")!, token: syncToken, models: SyncTestSchema.models)
            configuration.requestTimeout = .seconds(5)
            return try SyncEngine(container: container, configuration: configuration)
        }

        func restart() throws {
            try online.restart()
            offline = try Self.offlineEngine(online.container)
        }
    }

    let directory: URL
    let server: SyncServer
    let clients: [Client]

    init(serverContainer: ((URL) throws -> ModelContainer)? = nil) throws {
        let directory = try makeSyncDirectory()
        let server = try SyncServer(directory: directory, container: try serverContainer?(directory))
        self.directory = directory
        self.server = server
        clients = try (0..<SyncProgram.clients).map { try Client("c\($0)", server: server.url, directory: directory) }
    }

    func close() {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the steps; `SYNC_VERBOSE=1` prints each with every store's dump after it.
    func run(_ steps: [SyncStep]) async throws {
        for step in steps {
            try await run(step)
            if ProcessInfo.processInfo.environment["SYNC_VERBOSE"] == "1" { try trace("\(step)") }
        }
    }

    private func trace(_ title: String) throws {
        let (clients, server) = try dumps()
        print("== \(title)")
        for (index, dump) in clients.enumerated() { print("  c\(index): \(dump)") }
        print("  server: \(server)")
    }

    /// Every client online, then two rounds each, in turn: the second pass brings each client
    /// what the others pushed after its first.
    func settle() async throws {
        for client in clients { client.isOffline = false }
        for _ in 0..<2 {
            for (index, client) in clients.enumerated() {
                try await client.online.sync()
                if ProcessInfo.processInfo.environment["SYNC_VERBOSE"] == "1" { try trace("settle: sync(client: \(index))") }
            }
        }
    }

    /// Each client's dump and the server's; equal when the world converged.
    func dumps() throws -> (clients: [[String]], server: [String]) {
        (try clients.map { try $0.online.dump() }, try syncDump(server.container))
    }

    private func run(_ step: SyncStep) async throws {
        switch step {
        case let .sync(index):
            let client = clients[index]
            do {
                try await (client.isOffline ? client.offline : client.online.engine).sync()
            } catch let error as SyncError where client.isOffline && error.isRetryable {
                return
            }
        case let .goOffline(index): clients[index].isOffline = true
        case let .goOnline(index): clients[index].isOffline = false
        case let .restart(index): try clients[index].restart()
        default: try edit(step)
        }
    }

    private func edit(_ step: SyncStep) throws {
        let index: Int = switch step {
        case let .insertNote(client, _, _, _, _, _), let .insertFolder(client, _, _), let .insertLabel(client, _), let .retitle(client, _, _),
             let .rate(client, _, _, _), let .recolor(client, _, _), let .deleteNote(client, _), let .deleteFolder(client, _),
             let .deleteLabel(client, _), let .relate(client, _, _), let .unrelate(client, _), let .label(client, _, _), let .unlabel(client, _):
            client
        default: 0
        }
        let context = clients[index].online.context()
        let notes = try context.fetch(FetchDescriptor<SyncNote>(sortBy: [SortDescriptor(\.uid)]))
        let folders = try context.fetch(FetchDescriptor<SyncFolder>(sortBy: [SortDescriptor(\.name)]))
        let labels = try context.fetch(FetchDescriptor<SyncLabel>(sortBy: [SortDescriptor(\.name)]))
        func pick<T>(_ models: [T], _ fraction: Double?) -> T? {
            guard let fraction, !models.isEmpty else { return nil }
            return models[min(models.count - 1, Int(fraction * Double(models.count)))]
        }
        switch step {
        case let .insertNote(_, uid, title, rating, folder, label):
            let note = SyncNote(uid: uid, title: title, created: Date(timeIntervalSinceReferenceDate: Double(uid.utf8.reduce(0) { $0 + Int($1) })))
            note.rating = rating
            context.insert(note)
            note.folder = pick(folders, folder)
            if let label = pick(labels, label) { note.labels = [label] }
        case let .insertFolder(_, name, color):
            context.insert(SyncFolder(name: name, color: color))
        case let .insertLabel(_, name):
            context.insert(SyncLabel(name: name))
        case let .retitle(_, note, title):
            pick(notes, note)?.title = title
        case let .rate(_, note, rating, body):
            guard let note = pick(notes, note) else { return }
            note.rating = rating
            note.body = body
        case let .recolor(_, folder, color):
            pick(folders, folder)?.color = color
        case let .deleteNote(_, note):
            if let note = pick(notes, note) { context.delete(note) }
        case let .deleteFolder(_, folder):
            if let folder = pick(folders, folder) { context.delete(folder) }
        case let .deleteLabel(_, label):
            if let label = pick(labels, label) { context.delete(label) }
        case let .relate(_, note, folder):
            pick(notes, note)?.folder = pick(folders, folder)
        case let .unrelate(_, note):
            pick(notes, note)?.folder = nil
        case let .label(_, note, label):
            guard let note = pick(notes, note), let label = pick(labels, label), !note.labels.contains(label) else { return }
            note.labels.append(label)
        case let .unlabel(_, note):
            guard let note = pick(notes, note), !note.labels.isEmpty else { return }
            note.labels.removeFirst()
        default:
            return
        }
        try context.save()
    }
}
