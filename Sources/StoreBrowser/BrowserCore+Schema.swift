import Foundation
import HTTPTypes
import NIOCore
import OpenSwiftData

/// The schema page: each entity with its count, and the diagram.
extension BrowserCore {
    func schemaPage(_ page: Page) async throws -> StoreBrowserResponse {
        let request = page.request
        let names = schema.entities.map(\.name)
        let counts = try await run { [server] in
            try names.map { try server.count(DataStoreQuery(entityName: $0)) }
        }
        let entities = zip(schema.entities, counts).map { entity, count in
            SchemaView.Entity(entityName: entity.name, entityHref: request.path("entity", entity.name), modelCount: Numbers.grouped(count),
                              attributeNames: entity.attributes.map(\.name).joined(separator: ", "),
                              relationshipNames: entity.relationships.map { "\($0.name) → \($0.destination)" }.joined(separator: ", "),
                              superName: entity.superentityName, superLink: entity.superentityName.map { request.path("entity", $0) })
        }
        let total = counts.reduce(0, +)
        let summary = "\(schema.entities.count) \(schema.entities.count == 1 ? "entity" : "entities"), \(Numbers.grouped(total)) models in store \(server.storeIdentifier)."
        let view = SchemaView(chrome: chrome(page, title: "Schema", live: true), summary: summary, entities: entities,
                              diagramHref: request.path("diagram.svg"), diagramSVG: diagramSVG(request))
        return try render(view, template: "schema")
    }

    func diagram(_ page: Page) -> StoreBrowserResponse {
        StoreBrowserResponse(status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-store"],
                             body: .bytes(ByteBuffer(string: diagramSVG(page.request))))
    }

    private func diagramSVG(_ request: BrowserRequest) -> String {
        SchemaDiagram(schema: schema, entityLink: { request.path("entity", $0) }).svg()
    }
}

/// Counts as people read them: `1,000,000`.
enum Numbers {
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }
}
