import Foundation
import HTTPTypes
import NIOCore
import OpenSwiftData
import StoreServer

/// The browser's pages, behind its login: routes a ``BrowserRequest`` to a page and answers with
/// HTML (or the live updates' event stream). Framework adapters only translate requests.
final class BrowserCore: Sendable {
    let server: ServerBrowsing
    let configuration: StoreBrowserConfiguration
    let schema: BrowsedSchema
    let signer: SessionSigner

    init(server: ServerBrowsing, configuration: StoreBrowserConfiguration) {
        self.server = server
        self.configuration = configuration
        schema = BrowsedSchema(server.container.schema)
        signer = SessionSigner(lifetime: configuration.sessionLifetime)
    }

    func respond(_ request: BrowserRequest) async -> StoreBrowserResponse {
        var response: StoreBrowserResponse
        do {
            response = try await route(request)
        } catch {
            response = errorPage(error, request: request)
        }
        response.addSecurityHeaders()
        return response
    }

    private func route(_ request: BrowserRequest) async throws -> StoreBrowserResponse {
        let parts = request.components
        switch (request.method, parts.first) {
        case (.get, "assets"): return try asset(parts.dropFirst().joined(separator: "/"))
        case (.get, "login"): return try loginForm(request, hint: request.query["retry"] == nil ? nil : Self.cookieHint)
        case (.post, "login"): return try await login(request)
        default: break
        }
        guard let session = signer.session(from: request.cookies[SessionSigner.sessionCookie], tokens: server.accessByToken) else {
            guard request.method == .get || request.method == .head else {
                throw BrowserError(.unauthorized, "Log in before sending forms: this request carries no valid session cookie.")
            }
            return loginRedirect(request)
        }
        if request.method == .get, request.query["retry"] != nil { return withoutRetryMark(request) }
        if request.method == .post, !session.accepts(csrfToken: request.form["csrf"]) {
            throw BrowserError.forbidden("The form's CSRF token is missing or out of date. Reload the page and send the form again.")
        }
        let page = Page(request: request, session: session)
        switch (request.method, parts.count, parts.first) {
        case (.get, 0, _): return try await schemaPage(page)
        case (.get, 1, "diagram.svg"): return diagram(page)
        case (.get, 1, "events"): return events()
        case (.post, 1, "logout"): return logout(request)
        case (.get, 2, "entity"): return try await entityPage(page, entityName: parts[1])
        case (.get, 3, "model"): return try await modelPage(page, entityName: parts[1], key: parts[2])
        case (.get, 5, "model") where parts[3] == "edit": return try await editForm(page, entityName: parts[1], key: parts[2], attribute: parts[4])
        case (.post, 5, "model") where parts[3] == "edit": return try await saveEdit(page, entityName: parts[1], key: parts[2], attribute: parts[4])
        case (.get, 4, "model") where parts[3] == "delete": return try await deleteForm(page, entityName: parts[1], key: parts[2])
        case (.post, 4, "model") where parts[3] == "delete": return try await delete(page, entityName: parts[1], key: parts[2])
        default: throw BrowserError.notFound("The browser has no page at \(Links.path(prefix: request.prefix, parts)).")
        }
    }

    /// A request that has logged in, with what the page layout needs.
    struct Page {
        let request: BrowserRequest
        let session: BrowserSession

        var canEdit: Bool { session.access == .edit }
    }

    /// Whether the page may change the store: the server was started with editing, and the
    /// session's token has the admin scope.
    func editing(_ page: Page) -> Bool {
        configuration.mode == .edit && page.canEdit
    }

    func requireEditing(_ page: Page) throws {
        guard configuration.mode == .edit else {
            throw BrowserError.forbidden("This browser is read-only; start the server with --browse=edit to edit and delete models.")
        }
        guard page.canEdit else {
            throw BrowserError.forbidden("The token you logged in with lacks the admin scope, which editing in the browser needs; log in with an admin token (--admin-token) to edit.")
        }
    }

    func chrome(_ page: Page, title: String, current: String? = nil, live: Bool = false, notice: String? = nil) -> Chrome {
        let request = page.request
        let mode = configuration.mode == .edit ? (page.canEdit ? "Editing" : "Read-only token") : "Read-only"
        let entities = schema.entities.map { Chrome.Session.Entity(name: $0.name, href: request.path("entity", $0.name), current: $0.name == current) }
        return Chrome(title: title, prefix: request.prefix,
                      session: Chrome.Session(entities: entities, mode: mode, csrf: page.session.csrfToken),
                      live: live && server.keepsHistory ? request.path("events") : nil, notice: notice)
    }

    func render(_ view: Any, template: String, status: HTTPResponse.Status = .ok) throws -> StoreBrowserResponse {
        StoreBrowserResponse.html(try PageRenderer.shared.get().render(view, template: template), status: status)
    }

    /// Runs `call` on the server's store threads, within its time limit, with the entity names of
    /// snapshots resolving to the served schema's types.
    func run<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async throws -> T {
        try await server.run(call)
    }

    private func asset(_ name: String) throws -> StoreBrowserResponse {
        guard let file = Assets.files[name] else { throw BrowserError.notFound("The browser has no asset \(name).") }
        return StoreBrowserResponse(status: .ok, headers: [.contentType: file.type, .cacheControl: "public, max-age=3600"],
                                    body: .bytes(ByteBuffer(bytes: file.bytes)))
    }

    private func errorPage(_ error: any Error, request: BrowserRequest) -> StoreBrowserResponse {
        let failure = (error as? BrowserError) ?? BrowserError(.internalServerError, Self.message(of: error))
        let session = signer.session(from: request.cookies[SessionSigner.sessionCookie], tokens: server.accessByToken)
        var chrome = Chrome(title: failure.status.reasonPhrase, prefix: request.prefix)
        if let session { chrome = self.chrome(Page(request: request, session: session), title: failure.status.reasonPhrase) }
        let view = ErrorView(chrome: chrome, heading: "\(failure.status.code) \(failure.status.reasonPhrase)", message: failure.message,
                             home: request.path())
        do {
            return try render(view, template: "error", status: failure.status)
        } catch {
            return StoreBrowserResponse(status: failure.status, headers: [.contentType: "text/plain; charset=utf-8"],
                                        body: .bytes(ByteBuffer(string: failure.message)))
        }
    }

    /// What a store's or context's error says, for the page: its own message where it has one.
    static func message(of error: any Error) -> String {
        String(describing: error)
    }
}
