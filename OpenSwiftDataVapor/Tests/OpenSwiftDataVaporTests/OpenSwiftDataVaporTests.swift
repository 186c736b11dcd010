import Foundation
import OpenSwiftData
import OpenSwiftDataVapor
import StoreServer
import Testing
import VaporTesting

@Model final class Note {
    var text: String

    init(text: String) { self.text = text }
}

/// A Vapor app with a model container, request contexts and the store's routes mounted, driven
/// by Vapor's test client.
@Suite struct OpenSwiftDataVaporTests {
    static let token = "vapor-token"

    func configure(_ app: Application) throws {
        let container = try ModelContainer(for: Note.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        app.modelContainer = container
        app.post("notes") { req async throws -> String in
            let context = try req.modelContext
            context.insert(Note(text: try req.content.decode(String.self, as: .plainText)))
            try context.save()
            return "\(try context.fetchCount(FetchDescriptor<Note>()))"
        }
        app.get("notes") { req async throws -> String in
            try req.modelContext.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.text)])).map(\.text).joined(separator: ",")
        }
        app.get("context-is-per-request") { req async throws -> String in
            let first = try req.modelContext
            first.insert(Note(text: "unsaved"))
            return "\(try req.modelContext === first) \(try req.modelContext.hasChanges)"
        }
        let storeServer = try StoreServer(container: container, configuration: StoreServerConfiguration(tokens: [Self.token]))
        app.grouped("data").mount(storeServer)
    }

    @Test func eachRequestGetsItsOwnContextOfTheAppsContainer() async throws {
        try await withApp(configure: configure) { app in
            try await app.testing().test(.POST, "notes", headers: ["Content-Type": "text/plain"], body: ByteBuffer(string: "Oslo")) { response in
                #expect(response.body.string == "1")
            }
            try await app.testing().test(.GET, "context-is-per-request") { response in
                #expect(response.body.string == "true true")
            }
            // The unsaved insert of the previous request's context is gone with it.
            try await app.testing().test(.GET, "notes") { response in
                #expect(response.body.string == "Oslo")
            }
        }
    }

    @Test func aRouteWithoutAContainerAnswers500NamingTheSetting() async throws {
        try await withApp { app in
            app.get("notes") { req async throws -> String in "\(try req.modelContext.hasChanges)" }
            try await app.testing().test(.GET, "notes") { response in
                #expect(response.status == .internalServerError)
                #expect(response.body.string.contains("set app.modelContainer while configuring it"))
            }
        }
    }

    @Test func theStoreAPIAnswersUnderTheMountWithTheServersTokensAndMetrics() async throws {
        try await withApp(configure: configure) { app in
            try await app.testing().test(.POST, "notes", headers: ["Content-Type": "text/plain"], body: ByteBuffer(string: "Oslo"))
            let bearer: HTTPHeaders = ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/json"]
            let query = ByteBuffer(string: #"{"query":{"entityName":"Note","sortBy":[]}}"#)
            try await app.testing().test(.GET, "data/v1/health") { response in
                #expect(response.status == .ok)
                #expect(response.body.string == #"{"status":"ok"}"#)
            }
            try await app.testing().test(.POST, "data/v1/count", headers: ["Content-Type": "application/json"], body: query) { response in
                #expect(response.status == .unauthorized)
            }
            try await app.testing().test(.POST, "data/v1/count", headers: bearer, body: query) { response in
                #expect(response.status == .ok)
                #expect(response.body.string == #"{"count":1}"#)
            }
            try await app.testing().test(.GET, "data/metrics", headers: bearer) { response in
                let lines = Set(response.body.string.split(separator: "\n").map(String.init))
                #expect(lines.contains(#"openswiftdata_server_requests_total{route="/v1/count"} 2"#))
                #expect(lines.contains(#"openswiftdata_server_request_errors_total{route="/v1/count"} 1"#))
            }
        }
    }
}
