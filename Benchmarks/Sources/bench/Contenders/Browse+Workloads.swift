import Dispatch
import Foundation
import HTTPTypes
import Logging
import NIOCore
import OpenSwiftData
import StoreBrowser
import StoreServer

/// Raw SQLite: the page's count and its rows (`ORDER BY pk LIMIT 50 OFFSET …`) on prepared
/// statements, each row's columns read as text.
final class RawBrowse: BrowseSubject {
    private let users: RawUsers
    private let db: RawConnection
    private let count, countByAge, page, pageByAge: RawStatement

    init(_ directory: ScratchDirectory) throws {
        users = try RawUsers(directory, unique: false)
        db = try RawConnection(path: directory.file("raw.sqlite").path)
        count = try db.prepare("SELECT COUNT(*) FROM user")
        countByAge = try db.prepare("SELECT COUNT(*) FROM user WHERE age = ?")
        page = try db.prepare("SELECT pk, id, firstName, lastName, age FROM user ORDER BY pk LIMIT \(Browse.pageSize) OFFSET ?")
        pageByAge = try db.prepare("SELECT pk, id, firstName, lastName, age FROM user WHERE age = ? ORDER BY pk LIMIT \(Browse.pageSize)")
    }

    func load(_ rows: [UserRow]) throws { try users.load(rows) }

    func firstPage() throws -> Int { try rows(offset: 0) }

    func filteredPage() throws -> Int {
        countByAge.bind(1, Browse.filteredAge)
        defer { countByAge.reset() }
        _ = try countByAge.step()
        pageByAge.bind(1, Browse.filteredAge)
        return try read(pageByAge)
    }

    func deepPage() throws -> Int { try rows(offset: (Browse.deepPage - 1) * Browse.pageSize) }

    private func rows(offset: Int) throws -> Int {
        defer { count.reset() }
        _ = try count.step()
        page.bind(1, offset)
        return try read(page)
    }

    private func read(_ statement: RawStatement) throws -> Int {
        defer { statement.reset() }
        var shown = 0
        while try statement.step() {
            _ = (statement.int(0), statement.text(1), statement.text(2), statement.text(3), statement.int(4))
            shown += 1
        }
        return shown
    }
}

/// OpenSwiftData's default store behind a StoreServer, its browser answering each page's request
/// through `StoreBrowser.respond(to:mountedAt:body:)` with a logged-in session's cookie.
final class OSDBrowse: BrowseSubject {
    private let container: ModelContainer
    private let browser: StoreBrowser
    private let cookie: String

    init(_ directory: ScratchDirectory) throws {
        container = try ModelContainer(for: Schema([User.self]), configurations: [ModelConfiguration(url: directory.file("osd.store"))])
        var logger = Logger(label: "bench.browser")
        logger.logLevel = .critical
        let server = try StoreServer(container: container, configuration: StoreServerConfiguration(tokens: ["bench"]), logger: logger)
        browser = StoreBrowser(server: server, configuration: try StoreBrowserConfiguration(pageSize: Browse.pageSize))
        let form = Self.wait { [browser] in await browser.respond(to: Self.get("/browse/login"), mountedAt: "/browse", body: ByteBuffer()) }
        let nonce = try Self.cookie("osd_login", in: form)
        let login = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/browse/login",
                                headerFields: [.cookie: "osd_login=\(nonce)", .contentType: "application/x-www-form-urlencoded"])
        let answer = Self.wait { [browser] in await browser.respond(to: login, mountedAt: "/browse", body: ByteBuffer(string: "csrf=\(nonce)&token=bench")) }
        cookie = "osd_session=" + (try Self.cookie("osd_session", in: answer))
    }

    func load(_ rows: [UserRow]) throws {
        let context = ModelContext(container)
        for row in rows { context.insert(User(row)) }
        try context.save()
    }

    func firstPage() throws -> Int { try page("/browse/entity/User") }

    func filteredPage() throws -> Int { try page("/browse/entity/User?filter=age%20%3D%3D%20\(Browse.filteredAge)") }

    func deepPage() throws -> Int { try page("/browse/entity/User?page=\(Browse.deepPage)") }

    /// The page's HTML; how many model rows it shows.
    private func page(_ path: String) throws -> Int {
        var request = Self.get(path)
        request.headerFields[.cookie] = cookie
        let answer = Self.wait { [browser, request] in await browser.respond(to: request, mountedAt: "/browse", body: ByteBuffer()) }
        guard answer.head.status == .ok, case .bytes(let body) = answer.body else {
            throw UsageError("the browser answered \(path) with \(answer.head.status)")
        }
        return String(buffer: body).components(separatedBy: #"<tr><th scope="row">"#).count - 1
    }

    private static func get(_ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path)
    }

    private static func cookie(_ name: String, in answer: StoreBrowserResponse) throws -> String {
        for header in answer.head.headerFields[values: .setCookie] where header.hasPrefix("\(name)=") {
            return String(header.dropFirst(name.count + 1).prefix { $0 != ";" })
        }
        throw UsageError("the browser set no \(name) cookie")
    }

    /// The benchmark's phases are synchronous; the browser's entry point is async.
    private static func wait<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Box<T>()
        Task {
            result.value = await operation()
            done.signal()
        }
        done.wait()
        return result.value!
    }
}

/// A result handed from a task to the thread waiting for it.
private final class Box<T>: @unchecked Sendable {
    var value: T?
}
