import Foundation
import OpenSwiftData
import OpenSwiftDataVapor
import StoreBrowser
import StoreServer
import Testing
import VaporTesting

/// The data browser mounted in a Vapor app: the login, a page under the mount point, and the
/// refusal of a form without the session.
@Suite struct StoreBrowserMountTests {
    static let token = "vapor-browser-token"

    func configure(_ app: Application) throws {
        let container = try ModelContainer(for: Note.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Note(text: "<b>bold</b> note"))
        try context.save()
        let storeServer = try StoreServer(container: container, configuration: StoreServerConfiguration(tokens: [Self.token]))
        app.grouped("admin", "browse").mount(StoreBrowser(server: storeServer, configuration: try StoreBrowserConfiguration()))
    }

    /// The value of a `Set-Cookie` header's cookie, without its attributes.
    func cookie(_ name: String, in headers: HTTPHeaders) -> String? {
        headers[.setCookie].lazy.compactMap { header -> String? in
            guard header.hasPrefix("\(name)=") else { return nil }
            return String(header.dropFirst(name.count + 1).prefix { $0 != ";" })
        }.first
    }

    @Test func aVaporAppServesTheBrowserUnderItsMountPoint() async throws {
        try await withApp(configure: configure) { app in
            try await app.testing().test(.GET, "admin/browse/entity/Note") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers.first(name: .location) == "/admin/browse/login?next=%2Fadmin%2Fbrowse%2Fentity%2FNote")
            }
            var loginNonce = ""
            try await app.testing().test(.GET, "admin/browse/login") { response in
                #expect(response.status == .ok)
                loginNonce = cookie("osd_login", in: response.headers) ?? ""
                #expect(response.body.string.contains(#"<input type="hidden" name="csrf" value="\#(loginNonce)">"#))
            }
            var session = ""
            let form = "csrf=\(loginNonce)&next=%2Fadmin%2Fbrowse%2Fentity%2FNote&token=\(Self.token)"
            try await app.testing().test(.POST, "admin/browse/login",
                                         headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "osd_login=\(loginNonce)"],
                                         body: ByteBuffer(string: form)) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers.first(name: .location) == "/admin/browse/entity/Note?retry=1")
                session = cookie("osd_session", in: response.headers) ?? ""
                #expect(response.headers[.setCookie].contains { $0.hasSuffix("; Path=/admin/browse; Max-Age=43200; Secure; HttpOnly; SameSite=Strict") && $0.hasPrefix("osd_session=") })
            }
            try await app.testing().test(.GET, "admin/browse/entity/Note", headers: ["Cookie": "osd_session=\(session)"]) { response in
                #expect(response.status == .ok)
                #expect(response.body.string.contains("<td>&lt;b&gt;bold&lt;/b&gt; note</td>"))
                #expect(response.body.string.contains(#"<a href="/admin/browse/model/Note/1">1</a>"#))
            }
            try await app.testing().test(.POST, "admin/browse/logout", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                         body: ByteBuffer(string: "csrf=x")) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
