import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONStore
import Logging
import NIOCore
import OpenSwiftData
import SampleTrips
import StoreBrowser
import StoreServer
import Testing

let browserToken = "browser-test-token"

/// The stores a browser test can run over.
enum BrowsedStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, json, memory

    var testDescription: String { rawValue }

    func configuration(schema: Schema, directory: URL) -> any DataStoreConfiguration {
        switch self {
        case .sqlite: ModelConfiguration(schema: schema, url: directory.appendingPathComponent("browsed.store"))
        case .json: JSONStoreConfiguration(name: "browsed", schema: schema, url: directory.appendingPathComponent("browsed.json"))
        case .memory: ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)
        }
    }
}

/// A store server over a SQLite file in a directory of its own, and a browser of it mounted at
/// `/browse` on a Hummingbird router, driven by Hummingbird's test client.
struct BrowserHarness {
    let directory: URL
    let container: ModelContainer
    let server: StoreServer
    let browser: StoreBrowser

    init(schema: Schema = Schema(versionedSchema: TripsSchemaV2.self), store: BrowsedStoreKind = .sqlite, mode: StoreBrowserConfiguration.Mode = .edit,
         pageSize: Int = 50, tokens: [String: Set<StoreServerConfiguration.Scope>] = [browserToken: [.read, .write, .admin]]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("StoreBrowserTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        container = try ModelContainer(for: schema, configurations: [store.configuration(schema: schema, directory: directory)])
        var logger = Logger(label: "test.browser")
        logger.logLevel = .critical
        server = try StoreServer(container: container, configuration: StoreServerConfiguration(tokens: tokens), logger: logger)
        browser = StoreBrowser(server: server, configuration: try StoreBrowserConfiguration(mode: mode, pageSize: pageSize))
    }

    func removeStore() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Saves the models `insert` makes in a context of its own.
    func seed(_ insert: (ModelContext) throws -> Void) throws {
        let context = ModelContext(container)
        try insert(context)
        try context.save()
    }

    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let router = Router()
        router.get("/") { _, _ in "the host app's own page" }
        browser.addRoutes(to: router, atPath: "/browse")
        var logger = Logger(label: "test.browser")
        logger.logLevel = .critical
        try await Application(router: router, logger: logger).test(.router) { client in try await body(client) }
    }
}

/// A client that logged in, sending its session cookie, and each form's CSRF token.
struct LoggedInClient: Sendable {
    let client: any TestClientProtocol
    let session: String

    static func logIn(_ client: any TestClientProtocol, token: String = browserToken) async throws -> LoggedInClient {
        let form = try await client.execute(uri: "/browse/login", method: .get)
        let nonce = try #require(setCookie("osd_login", in: form))
        let answer = try await client.execute(uri: "/browse/login", method: .post, headers: [.cookie: "osd_login=\(nonce)", .contentType: formType],
                                              body: ByteBuffer(string: "csrf=\(nonce)&next=%2Fbrowse%2F&token=\(token)"))
        #expect(answer.status == .seeOther)
        return LoggedInClient(client: client, session: try #require(setCookie("osd_session", in: answer)))
    }

    func get(_ uri: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .get, headers: [.cookie: "osd_session=\(session)"])
    }

    /// Posts `fields` with the CSRF token of the page at `page` (the form's own page).
    func post(_ uri: String, _ fields: [(String, String)], formOn page: String) async throws -> TestResponse {
        let token = try #require(csrfToken(in: try await get(page).text))
        return try await post(uri, [("csrf", token)] + fields)
    }

    /// Posts `fields` as they are, CSRF token or not.
    func post(_ uri: String, _ fields: [(String, String)]) async throws -> TestResponse {
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.1)" }.joined(separator: "&")
        return try await client.execute(uri: uri, method: .post, headers: [.cookie: "osd_session=\(session)", .contentType: formType],
                                        body: ByteBuffer(string: body))
    }
}

let formType = "application/x-www-form-urlencoded"

/// The value a response's `Set-Cookie` gives a cookie.
func setCookie(_ name: String, in response: TestResponse) -> String? {
    setCookie(name, in: response.headers)
}

func setCookie(_ name: String, in fields: HTTPFields) -> String? {
    fields[values: .setCookie].lazy.compactMap { header -> String? in
        guard header.hasPrefix("\(name)=") else { return nil }
        return String(header.dropFirst(name.count + 1).prefix { $0 != ";" })
    }.first
}

/// The CSRF token of a page's first form.
func csrfToken(in page: String) -> String? {
    guard let range = page.range(of: #"name="csrf" value=""#) else { return nil }
    return String(page[range.upperBound...].prefix { $0 != "\"" })
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The page's `<main>`, where its content is.
    var main: String {
        guard let start = text.range(of: "<main"), let end = text.range(of: "</main>") else { return "" }
        return String(text[start.lowerBound..<end.upperBound])
    }
}
