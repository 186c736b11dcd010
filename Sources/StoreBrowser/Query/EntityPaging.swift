import Foundation
import OpenSwiftData

/// What an entity's page shows, as its URL says: the filter, the sort, and which page, by number
/// (`page=3`, offset paging) or after a value of a unique sort column (`after=…`, keyset
/// paging, which reads only the rows it shows however deep the page is).
struct EntityView: Equatable {
    var filter = ""
    var sort: String?
    var ascending = true
    var page = 1
    var after: String?
    var before: String?

    init(filter: String = "", sort: String? = nil, ascending: Bool = true, page: Int = 1, after: String? = nil, before: String? = nil) {
        self.filter = filter
        self.sort = sort
        self.ascending = ascending
        self.page = page
        self.after = after
        self.before = before
    }

    init(query: [String: String]) throws {
        filter = query["filter"] ?? ""
        sort = query["sort"].flatMap { $0.isEmpty ? nil : $0 }
        ascending = query["order"] != "desc"
        if let text = query["page"], !text.isEmpty {
            guard let number = Int(text), number >= 1 else { throw BrowserError.badRequest("page must be a whole number from 1 (got \(text)).") }
            page = number
        }
        after = query["after"]
        before = query["before"]
    }

    /// The URL fields of this view, in a fixed order.
    var fields: [(String, String?)] {
        [("filter", filter), ("sort", sort), ("order", sort == nil || ascending ? nil : "desc"),
         ("page", page > 1 ? String(page) : nil), ("after", after), ("before", before)]
    }
}

/// One page of an entity's models, fetched from the store by keyset or offset.
struct EntityPageRows {
    var snapshots: [DefaultSnapshot]
    /// How many models the filter selects.
    var total: Int
    /// The position of the page's first model among them.
    var offset: Int
    var hasPrevious: Bool
    var hasNext: Bool
    /// The keyset tokens of the first and last rows, when the page is sorted by a unique column.
    var firstKey: String?
    var lastKey: String?
}

/// Runs an entity view against the store: a count, then the page's rows only.
struct EntityPaging {
    let entity: BrowsedSchema.Entity
    let filter: QueryExpression?
    let pageSize: Int
    let snapshots: @Sendable (DataStoreQuery) throws -> [DefaultSnapshot]
    let count: @Sendable (DataStoreQuery) throws -> Int

    func rows(for view: EntityView) throws -> EntityPageRows {
        let total = try count(DataStoreQuery(entityName: entity.name, filter: filter))
        let sortColumn = try view.sort.map { name -> BrowsedSchema.Attribute in
            guard let attribute = entity.attribute(named: name), attribute.isSortable else {
                throw BrowserError.badRequest("\(entity.name) cannot be sorted by \(name); sort by one of \(entity.attributes.filter(\.isSortable).map(\.name).joined(separator: ", ")).")
            }
            return attribute
        }
        if let column = sortColumn, entity.isKeysetColumn(column), let kind = column.type?.kind, view.after != nil || view.before != nil {
            return try keysetRows(view, column: column, kind: kind, total: total)
        }
        let offset = (view.page - 1) * pageSize
        var page: [DefaultSnapshot]
        if let column = sortColumn, column.type?.kind == .bool {
            page = try partitionedRows(column: column, ascending: view.ascending, offset: offset)
        } else {
            let sortBy = sortColumn.map { [QuerySortKey(path: [$0.name], ascending: view.ascending, kind: $0.type!.kind)] } ?? []
            page = try snapshots(DataStoreQuery(entityName: entity.name, filter: filter, sortBy: sortBy, fetchLimit: pageSize, fetchOffset: offset))
        }
        var rows = EntityPageRows(snapshots: page, total: total, offset: offset, hasPrevious: offset > 0,
                                  hasNext: offset + page.count < total)
        if let column = sortColumn, entity.isKeysetColumn(column) { addKeys(&rows, column: column) }
        return rows
    }

    /// The page after (or before) a value of a unique column: `column > value` in the sort's order,
    /// one row more than a page to learn whether another follows.
    private func keysetRows(_ view: EntityView, column: BrowsedSchema.Attribute, kind: QueryValueKind, total: Int) throws -> EntityPageRows {
        let forward = view.after != nil
        let key = try KeysetKey.value(view.after ?? view.before ?? "", kind: kind)
        let type = QueryValueType(kind)
        let property = QueryExpression.property([column.name])
        // Forward in ascending order reads values above the key; every other case mirrors it.
        let above = forward == view.ascending
        let bound = QueryExpression.comparison(property, above ? .greaterThan : .lessThan, .value(key), type: type)
        let readAscending = forward ? view.ascending : !view.ascending
        var page = try snapshots(DataStoreQuery(entityName: entity.name, filter: filter.map { .and($0, bound) } ?? bound,
                                                sortBy: [QuerySortKey(path: [column.name], ascending: readAscending, kind: kind)],
                                                fetchLimit: pageSize + 1))
        let more = page.count > pageSize
        page = Array(page.prefix(pageSize))
        if !forward { page.reverse() }
        // Rows before the page: those on the other side of its first value.
        var offset = 0
        if let first = page.first, let value = KeysetKey.queryValue(first, column: column.name, entity: entity) {
            let before = QueryExpression.comparison(property, view.ascending ? .lessThan : .greaterThan, .value(value), type: type)
            offset = try count(DataStoreQuery(entityName: entity.name, filter: filter.map { .and($0, before) } ?? before))
        }
        var rows = EntityPageRows(snapshots: page, total: total, offset: offset,
                                  hasPrevious: forward ? true : more, hasNext: forward ? more : true)
        rows.hasPrevious = rows.hasPrevious && offset > 0
        rows.hasNext = rows.hasNext && offset + page.count < total
        addKeys(&rows, column: column)
        return rows
    }

    private func addKeys(_ rows: inout EntityPageRows, column: BrowsedSchema.Attribute) {
        rows.firstKey = rows.snapshots.first.flatMap { KeysetKey.text(of: $0, column: column.name, entity: entity) }
        rows.lastKey = rows.snapshots.last.flatMap { KeysetKey.text(of: $0, column: column.name, entity: entity) }
    }

    /// A page sorted by a `Bool` column, which SQL stores do not sort: one query per value, nil
    /// (for an optional column) then false then true, each counted to find where the page starts.
    private func partitionedRows(column: BrowsedSchema.Attribute, ascending: Bool, offset: Int) throws -> [DefaultSnapshot] {
        var values: [QueryValue] = (column.isOptional ? [.null] : []) + [.bool(false), .bool(true)]
        if !ascending { values.reverse() }
        let type = QueryValueType(.bool, isOptional: column.isOptional)
        var skip = offset
        var page: [DefaultSnapshot] = []
        for value in values where page.count < pageSize {
            let test = QueryExpression.comparison(.property([column.name]), .equal, .value(value), type: type)
            let partition = filter.map { QueryExpression.and($0, test) } ?? test
            let size = try count(DataStoreQuery(entityName: entity.name, filter: partition))
            if skip >= size {
                skip -= size
                continue
            }
            page += try snapshots(DataStoreQuery(entityName: entity.name, filter: partition, fetchLimit: pageSize - page.count, fetchOffset: skip))
            skip = 0
        }
        return page
    }
}

/// A keyset position in a URL: the sort column's value, written exactly (a date as the seconds
/// it stores, since 2001, so that no fraction is lost).
enum KeysetKey {
    static func text(of snapshot: DefaultSnapshot, column: String, entity: BrowsedSchema.Entity) -> String? {
        switch queryValue(snapshot, column: column, entity: entity) {
        case .string(let text)?: text
        case .integer(let integer)?: String(integer)
        case .double(let double)?: String(double)
        case .date(let date)?: String(date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid)?: uuid.uuidString
        default: nil
        }
    }

    static func queryValue(_ snapshot: DefaultSnapshot, column: String, entity: BrowsedSchema.Entity) -> QueryValue? {
        guard let type = entity.modelType else { return nil }
        let layout = DataStoreRowLayout(for: type)
        guard let index = layout.index(ofProperty: column) else { return nil }
        return StoredValue.queryValue(layout.values(of: snapshot)[index])
    }

    static func value(_ text: String, kind: QueryValueKind) throws -> QueryValue {
        let value: QueryValue? = switch kind {
        case .string: .string(text)
        case .integer: Int64(text).map(QueryValue.integer)
        case .double: Double(text).flatMap { $0.isFinite ? .double($0) : nil }
        case .date: Double(text).flatMap { $0.isFinite ? .date(Date(timeIntervalSinceReferenceDate: $0)) : nil }
        case .uuid: UUID(uuidString: text).map(QueryValue.uuid)
        default: nil
        }
        guard let value else { throw BrowserError.badRequest("The page position \(text) is not a value of the sort column; start from the first page.") }
        return value
    }
}
