/// How RESULTS.md presents the workloads that compare two ways of OpenSwiftData with each other.
extension Workload {
    var sectionTitle: String {
        switch self {
        case .graphAppend: "Building a graph one child at a time"
        case .historyInsert: "History on against history off"
        case .historyFetch: "Reading history after a token"
        case .hierarchyFetch: "Fetching a model hierarchy"
        default: rawValue
        }
    }

    var sectionText: String {
        switch self {
        case .graphAppend:
            "The graph-append workload builds N children under their parents in one context and saves once, either assigning each "
                + "parent's array at once or appending the children one by one."
        case .historyInsert:
            "The simple workload's insert of N users in one save, each run on two fresh stores: one opened with history off "
                + "(`ModelConfiguration.keepsHistory`, `JSONStoreConfiguration.keepsHistory`), one with history on."
        case .historyFetch:
            "A history of one-user saves, written once: 100 reads of the transactions after a token, with the 100th to the 199th "
                + "newest tokens (so each read returns 100 to 199 transactions), in a history of 1,000 transactions and in one of N."
        case .hierarchyFetch:
            "N models of a three-class hierarchy (a base class and two subclasses, a third each) fetched through the base class "
                + "into objects of their own classes, against N flat models with the same attributes, each fetch in a new context."
        default: ""
        }
    }

    func sizeLabel(_ size: Int) -> String {
        guard self == .graphAppend, let shape = GraphAppend.shapes[size] else { return Results.number(size) }
        return "\(Results.number(shape.parents)) × \(Results.number(shape.children))"
    }
}
