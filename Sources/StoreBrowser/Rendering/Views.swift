/// What the templates read. Mustache looks a name up the whole context stack when a value is nil,
/// so names are unique across the levels a template nests (a cell's `cellHref`, a row's `rowHref`).

/// The layout's part of every page.
struct Chrome {
    struct Session {
        struct Entity {
            let name: String
            let href: String
            let current: Bool
        }

        let entities: [Entity]
        let mode: String
        let csrf: String
    }

    let title: String
    let prefix: String
    var session: Session?
    /// The events URL, when the page follows the store's changes.
    var live: String?
    var notice: String?
    var error: String?
}

struct LoginView {
    let chrome: Chrome
    let action: String
    let csrf: String
    let next: String
    let hint: String?
}

struct ErrorView {
    let chrome: Chrome
    let heading: String
    let message: String
    let home: String
}

struct SchemaView {
    struct Entity {
        let entityName: String
        let entityHref: String
        let modelCount: String
        let attributeNames: String
        let relationshipNames: String
        let superName: String?
        let superLink: String?
    }

    let chrome: Chrome
    let summary: String
    let entities: [Entity]
    let diagramHref: String
    let diagramSVG: String
}

struct EntityTableView {
    struct Column {
        let columnName: String
        let sortHref: String?
        let sortHint: String
        let ariaSort: String?
        let indicator: String
    }

    struct Cell {
        let cellText: String
        let cellIsNil: Bool
        let cellHref: String?
        let cellClass: String?
    }

    struct Row {
        let rowLabel: String
        let rowHref: String
        let cells: [Cell]
    }

    struct PagerLink {
        let pagerLabel: String
        let pagerHref: String?
        let pagerRel: String
    }

    struct Subclass {
        let subclassName: String
        let subclassHref: String
        let subclassCount: String
    }

    let chrome: Chrome
    let entity: String
    let summary: String
    let hasSubclasses: Bool
    let subclasses: [Subclass]
    let parentName: String?
    let parentHref: String?
    let action: String
    let filter: String
    let placeholder: String
    let filterError: String?
    let sortField: String?
    let orderField: String?
    let clearHref: String?
    let hasRows: Bool
    let caption: String
    let columns: [Column]
    let rows: [Row]
    let emptyText: String
    let pager: [PagerLink]
}

struct ModelView {
    struct Attribute {
        let attributeName: String
        let typeName: String
        let valueText: String
        let valueIsNil: Bool
        let editHref: String?
    }

    struct Related {
        let relatedLabel: String
        let relatedHref: String
    }

    struct Relationship {
        let relationshipName: String
        let shape: String
        let destination: String
        let destinationHref: String
        let rule: String
        let hasRelated: Bool
        let related: [Related]
        let moreText: String?
    }

    struct Change {
        let when: String
        let kind: String
        let author: String
        let changedAttributes: String?
    }

    let chrome: Chrome
    let entity: String
    let entityHref: String
    let key: String
    let heading: String
    let canEdit: Bool
    let attributes: [Attribute]
    let relationships: [Relationship]
    let deleteHref: String
    let historyNote: String?
    let hasChanges: Bool
    let changes: [Change]
    let olderHref: String?
}

struct EditView {
    struct Choice {
        let choiceValue: String
        let choiceSelected: Bool
    }

    let chrome: Chrome
    let entity: String
    let entityHref: String
    let key: String
    let modelHref: String
    let heading: String
    let attributeName: String
    let typeName: String
    let action: String
    let csrf: String
    let errorTitle: String
    let saveError: String?
    let value: String
    let isText: Bool
    let isNumber: Bool
    let inputMode: String
    let isLong: Bool
    let isChoice: Bool
    let choices: [Choice]
    let help: String
    let allowsNil: Bool
    let isNil: Bool
}

struct DeleteView {
    let chrome: Chrome
    let entity: String
    let entityHref: String
    let key: String
    let modelHref: String
    let heading: String
    let action: String
    let csrf: String
    let saveError: String?
    let consequences: String
}
