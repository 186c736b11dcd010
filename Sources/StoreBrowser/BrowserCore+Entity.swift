import Foundation
import HTTPTypes
import OpenSwiftData

/// An entity's page: its models as a table, one column per attribute then per relationship,
/// sorted, filtered and paged as the URL says.
extension BrowserCore {
    func entityPage(_ page: Page, entityName: String) async throws -> StoreBrowserResponse {
        let request = page.request
        let entity = try schema.entity(named: entityName)
        guard let modelType = entity.modelType else {
            throw BrowserError.notFound("The server has no model type for \(entityName), so its rows cannot be read.")
        }
        let view = try EntityView(query: request.query)
        var filterError: String?
        var filter: QueryExpression?
        do {
            var parser = FilterParser(schema: schema, entity: entity, storeIdentifier: server.storeIdentifier)
            filter = try parser.parse(view.filter)
        } catch let error as FilterError {
            filterError = error.message
        }
        let layout = DataStoreRowLayout(for: modelType)
        var rows = EntityPageRows(snapshots: [], total: 0, offset: 0, hasPrevious: false, hasNext: false)
        var unfiltered: Int?
        var subclassCounts: [(String, Int)] = []
        var labels: [PersistentIdentifier: String] = [:]
        if filterError == nil {
            do {
                let paging = EntityPaging(entity: entity, filter: filter, pageSize: configuration.pageSize,
                                          snapshots: server.snapshots, count: server.count)
                let hasFilter = filter != nil
                let subclasses = descendants(of: entity)
                (rows, unfiltered, subclassCounts, labels) = try await run { [server] in
                    let rows = try paging.rows(for: view)
                    return (rows, hasFilter ? try server.count(DataStoreQuery(entityName: entity.name)) : nil,
                            try subclasses.map { ($0, try server.count(DataStoreQuery(entityName: $0))) },
                            self.toOneLabels(of: rows.snapshots, entity: entity, layout: layout))
                }
            } catch DataStoreError.preferInMemoryFilter {
                filterError = "This store cannot run that filter itself, and the browser never loads a whole entity to filter it; try a simpler condition."
            } catch DataStoreError.preferInMemorySort {
                filterError = "This store cannot sort \(entityName) by \(view.sort ?? "that column") itself; sort by another column."
            }
        }
        let table = EntityTable(entity: entity, layout: layout, view: view, request: request, labels: labels)
        let tableView = EntityTableView(
            chrome: chrome(page, title: entityName, current: entityName, live: true,
                           notice: request.query["deleted"].map { "Deleted \(entityName) \($0)." }),
            entity: entityName, summary: summary(rows, unfiltered: unfiltered, filterFailed: filterError != nil),
            hasSubclasses: !subclassCounts.isEmpty,
            subclasses: subclassCounts.map { EntityTableView.Subclass(subclassName: $0.0, subclassHref: request.path("entity", $0.0), subclassCount: Numbers.grouped($0.1)) },
            parentName: entity.superentityName, parentHref: entity.superentityName.map { request.path("entity", $0) },
            action: request.path("entity", entityName), filter: view.filter, placeholder: placeholder(entity),
            filterError: filterError, sortField: view.sort, orderField: view.sort != nil && !view.ascending ? "desc" : nil,
            clearHref: view.filter.isEmpty ? nil : table.link(EntityView(sort: view.sort, ascending: view.ascending)),
            hasRows: !rows.snapshots.isEmpty, caption: table.caption(rows), columns: table.columns(),
            rows: table.rows(rows.snapshots), emptyText: filterError == nil ? (view.filter.isEmpty ? "\(entityName) has no models yet." : "No model matches the filter.") : "Fix the filter to see models.",
            pager: table.pager(rows, pageSize: configuration.pageSize))
        return try render(tableView, template: "entity", status: filterError == nil ? .ok : .unprocessableContent)
    }

    /// The labels of the models the page's rows relate to one by one, a query per relationship.
    private func toOneLabels(of snapshots: [DefaultSnapshot], entity: BrowsedSchema.Entity, layout: DataStoreRowLayout) -> [PersistentIdentifier: String] {
        var labels: [PersistentIdentifier: String] = [:]
        for relationship in entity.relationships where !relationship.isToMany {
            guard let index = layout.index(ofProperty: relationship.name) else { continue }
            let related = Set(snapshots.compactMap { StoredValue.unwrapped(layout.values(of: $0)[index]) as? PersistentIdentifier })
            labels.merge(self.labels(of: related.sorted())) { first, _ in first }
        }
        return labels
    }

    /// The entities that inherit from `entity`, directly or not, in the schema's order. Each keeps
    /// its own models, so a class's table holds its own and links to its subclasses' tables.
    private func descendants(of entity: BrowsedSchema.Entity) -> [String] {
        schema.entities.filter { $0.name != entity.name && schema.entity($0.name, isA: entity.name) }.map(\.name)
    }

    private func summary(_ rows: EntityPageRows, unfiltered: Int?, filterFailed: Bool) -> String {
        if filterFailed { return "The filter could not be run." }
        let noun = rows.total == 1 ? "model" : "models"
        guard let unfiltered else { return "\(Numbers.grouped(rows.total)) \(noun)." }
        return "\(Numbers.grouped(rows.total)) of \(Numbers.grouped(unfiltered)) models match the filter."
    }

    private func placeholder(_ entity: BrowsedSchema.Entity) -> String {
        if let text = entity.attributes.first(where: { $0.type?.kind == .string }) { return "\(text.name).contains(\"…\")" }
        if let number = entity.attributes.first(where: { $0.type?.kind == .integer }) { return "\(number.name) > 0" }
        return entity.attributes.first.map { "\($0.name) != nil" } ?? ""
    }
}

/// Builds an entity table's columns, rows and pager from a page of snapshots.
struct EntityTable {
    let entity: BrowsedSchema.Entity
    let layout: DataStoreRowLayout
    let view: EntityView
    let request: BrowserRequest
    /// Labels of the related models the rows link to, by identifier.
    let labels: [PersistentIdentifier: String]
    /// The longest text a cell shows; the model's page shows all of it.
    private static let cellLength = 80

    func link(_ view: EntityView) -> String {
        Links.with(request.path("entity", entity.name), view.fields)
    }

    func caption(_ rows: EntityPageRows) -> String {
        guard !rows.snapshots.isEmpty else { return entity.name }
        var caption = "\(entity.name) \(rows.offset + 1)–\(rows.offset + rows.snapshots.count) of \(Numbers.grouped(rows.total))"
        if let sort = view.sort { caption += ", sorted by \(sort) \(view.ascending ? "ascending" : "descending")" }
        return caption
    }

    func columns() -> [EntityTableView.Column] {
        var columns: [EntityTableView.Column] = []
        for attribute in entity.attributes {
            let current = view.sort == attribute.name
            let ascending = current ? !view.ascending : true
            let href = attribute.isSortable ? link(EntityView(filter: view.filter, sort: attribute.name, ascending: ascending)) : nil
            columns.append(EntityTableView.Column(
                columnName: attribute.name, sortHref: href, sortHint: "Sort by \(attribute.name) \(ascending ? "ascending" : "descending")",
                ariaSort: current ? (view.ascending ? "ascending" : "descending") : nil,
                indicator: current ? (view.ascending ? " ▲" : " ▼") : ""))
        }
        for relationship in entity.relationships {
            columns.append(EntityTableView.Column(columnName: relationship.name, sortHref: nil, sortHint: "", ariaSort: nil, indicator: ""))
        }
        return columns
    }

    func rows(_ snapshots: [DefaultSnapshot]) -> [EntityTableView.Row] {
        snapshots.map { snapshot in
            let identifier = snapshot.persistentIdentifier
            let values = layout.values(of: snapshot)
            func value(_ name: String) -> Any? { layout.index(ofProperty: name).map { values[$0] } ?? nil }
            var cells: [EntityTableView.Cell] = []
            for attribute in entity.attributes {
                cells.append(cell(StoredValue.text(value(attribute.name)), kind: attribute.type?.kind))
            }
            for relationship in entity.relationships {
                cells.append(relationshipCell(value(relationship.name), relationship))
            }
            let key = ModelKey.text(of: identifier)
            return EntityTableView.Row(rowLabel: key, rowHref: request.path("model", identifier.entityName, key), cells: cells)
        }
    }

    private func cell(_ text: String?, kind: QueryValueKind?) -> EntityTableView.Cell {
        guard let text else { return EntityTableView.Cell(cellText: "", cellIsNil: true, cellHref: nil, cellClass: "nil-cell") }
        let shown = text.count > Self.cellLength ? String(text.prefix(Self.cellLength)) + "…" : text
        let cellClass: String? = switch kind {
        case .integer?, .double?: "number"
        case .date?: "date"
        default: nil
        }
        return EntityTableView.Cell(cellText: shown, cellIsNil: false, cellHref: nil, cellClass: cellClass)
    }

    private func relationshipCell(_ value: Any?, _ relationship: BrowsedSchema.Relationship) -> EntityTableView.Cell {
        let value = StoredValue.unwrapped(value)
        if let identifier = value as? PersistentIdentifier {
            let key = ModelKey.text(of: identifier)
            return EntityTableView.Cell(cellText: labels[identifier] ?? "\(identifier.entityName) \(key)", cellIsNil: false,
                                        cellHref: request.path("model", identifier.entityName, key), cellClass: nil)
        }
        if let identifiers = value as? [PersistentIdentifier] {
            return EntityTableView.Cell(cellText: "\(identifiers.count) \(identifiers.count == 1 ? "model" : "models")", cellIsNil: false,
                                        cellHref: nil, cellClass: "number")
        }
        if relationship.isToMany, value != nil {
            return EntityTableView.Cell(cellText: "…", cellIsNil: false, cellHref: nil, cellClass: nil)
        }
        return EntityTableView.Cell(cellText: "", cellIsNil: true, cellHref: nil, cellClass: "nil-cell")
    }

    /// First, previous, the page's place, next and last. Sorted by a unique column, pages move
    /// by keyset (after the last row's value); otherwise by page number.
    func pager(_ rows: EntityPageRows, pageSize: Int) -> [EntityTableView.PagerLink] {
        let pages = max(1, (rows.total + pageSize - 1) / pageSize)
        let base = EntityView(filter: view.filter, sort: view.sort, ascending: view.ascending)
        let keyset = view.sort.flatMap(entity.attribute(named:)).map(entity.isKeysetColumn) ?? false
        var previous = base, next = base, last = base
        if keyset {
            previous.before = rows.firstKey
            next.after = rows.lastKey
        } else {
            previous.page = max(1, view.page - 1)
            next.page = view.page + 1
            last.page = pages
        }
        let current = rows.offset / pageSize + 1
        var links = [
            EntityTableView.PagerLink(pagerLabel: "First page", pagerHref: rows.hasPrevious ? link(base) : nil, pagerRel: "first"),
            EntityTableView.PagerLink(pagerLabel: "Previous page", pagerHref: rows.hasPrevious ? link(previous) : nil, pagerRel: "prev"),
            EntityTableView.PagerLink(pagerLabel: "Page \(Numbers.grouped(current)) of \(Numbers.grouped(pages))", pagerHref: nil, pagerRel: ""),
            EntityTableView.PagerLink(pagerLabel: "Next page", pagerHref: rows.hasNext ? link(next) : nil, pagerRel: "next"),
        ]
        if !keyset {
            links.append(EntityTableView.PagerLink(pagerLabel: "Last page", pagerHref: rows.hasNext ? link(last) : nil, pagerRel: "last"))
        }
        return links
    }
}
