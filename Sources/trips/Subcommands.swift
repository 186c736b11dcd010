import ArgumentParser
import Foundation
import OpenSwiftData
import SampleTrips

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a trip.")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The trip's name.") var name: String
    @Option(help: "Where the trip goes.") var destination: String
    @Option(help: ArgumentHelp("First day.", valueName: "YYYY-MM-DD")) var start: TripDate
    @Option(help: ArgumentHelp("Last day (default: the first day).", valueName: "YYYY-MM-DD")) var end: TripDate?
    @Option(parsing: .unconditional, help: ArgumentHelp("Budget, in your currency, such as 1200 or 99.50.", valueName: "amount"))
    var budget = Budget(argument: "0")
    @Option(help: "Free-form notes.") var notes: String?

    func validate() throws {
        if let end, end < start { throw ValidationError("--end must not be before --start.") }
        _ = try budget.cents()
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("The trip needs a name.") }
    }

    /// A trip with the same name and first day already exists (the model's `#Unique` key). Saving
    /// would update it in place (SwiftData's upsert) and drop its notes and plans; from the
    /// command line that is surely a mistake, so it is refused and `trips edit` offered instead.
    func run() throws {
        let context = try options.context(creatingStore: true)
        let name = name, startDate = start.date
        if let existing = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name && $0.startDate == startDate })).first {
            let number = try TripCatalog(context).number(existing)
            throw TripsError("#\(number) \(existing.name) already starts on \(DateDisplay.string(startDate)); nothing was added. Change it with `trips edit \(number) …`, or give the new trip another name or start.")
        }
        let trip = Trip(name: name, destination: destination, startDate: startDate, endDate: (end ?? start).date,
                        budgetCents: try budget.cents(), notes: notes)
        context.insert(trip)
        try context.save("added the trip '\(name)' (\(DateDisplay.string(startDate)))",
                         advice: .repeatable("it adds the trip only if no trip of that name starts that day"))
        print("Added \(try TripCatalog(context).label(trip)) (\(trip.destination), \(DateDisplay.string(trip.startDate)))")
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List trips, soonest first.")

    enum Order: String, ExpressibleByArgument, CaseIterable { case start, name, destination, budget }

    @OptionGroup var options: StoreOptions
    @Option(help: "Only trips to this destination.") var destination: String?
    @Option(help: ArgumentHelp("Only trips ending on or after this day.", valueName: "YYYY-MM-DD")) var from: TripDate?
    @Option(help: ArgumentHelp("Only trips starting on or before this day.", valueName: "YYYY-MM-DD")) var to: TripDate?
    @Option(help: "Sort by start, name, destination or budget.") var sort: Order = .start
    @Flag(help: "Reverse the order.") var reverse = false
    @Flag(help: "Print the trips as JSON.") var json = false

    func run() throws {
        let context = try options.context()
        let trips = try context.fetch(FetchDescriptor<Trip>(predicate: predicate(), sortBy: sortDescriptors()))
        let catalog = try TripCatalog(context)
        if json {
            print(try TripJSON.string(trips.map { TripJSON.object($0, number: catalog.number($0)) }))
            return
        }
        guard !trips.isEmpty else {
            print("No trips. Add one with `trips add NAME --destination PLACE --start YYYY-MM-DD`.")
            return
        }
        print(TripTable(trips: trips, catalog: catalog).render())
    }

    /// Each bound applies only when given: `Date.distantPast` and `.distantFuture` stand-ins
    /// would hide trips outside years 1–4000, which a date option or another client can store.
    private func predicate() -> Predicate<Trip> {
        let place = destination ?? "", anyPlace = destination == nil
        let earliest = from?.date ?? .now, anyEnd = from == nil
        let latest = to?.date ?? .now, anyStart = to == nil
        return #Predicate {
            (anyPlace || $0.destination == place) && (anyEnd || $0.endDate >= earliest) && (anyStart || $0.startDate <= latest)
        }
    }

    private func sortDescriptors() -> [SortDescriptor<Trip>] {
        let order: SortOrder = reverse ? .reverse : .forward
        switch sort {
        case .start: return [SortDescriptor(\.startDate, order: order), SortDescriptor(\.name)]
        case .name: return [SortDescriptor(\.name, order: order), SortDescriptor(\.startDate)]
        case .destination: return [SortDescriptor(\.destination, order: order), SortDescriptor(\.startDate)]
        case .budget: return [SortDescriptor(\.budgetCents, order: order), SortDescriptor(\.startDate)]
        }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show one trip.")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The trip's number (from `trips list`) or name.") var trip: String
    @Flag(help: "Print the trip as JSON.") var json = false

    func run() throws {
        let context = try options.context()
        let catalog = try TripCatalog(context)
        let trip = try catalog.resolve(self.trip)
        if json {
            print(try TripJSON.string(TripJSON.object(trip, number: catalog.number(trip), detailed: true)))
            return
        }
        let lines = [
            ("Trip", catalog.label(trip)),
            ("Destination", trip.destination),
            ("Dates", "\(DateDisplay.string(trip.startDate)) – \(DateDisplay.string(trip.endDate)) (\(trip.days) \(trip.days == 1 ? "day" : "days"))"),
            ("Budget", TripTable.money(trip.budget)),
            ("Notes", trip.notes ?? "—"),
            ("Stay", trip.livingAccommodation.map { [$0.placeName, $0.address].filter { !$0.isEmpty }.joined(separator: ", ") } ?? "—"),
            ("Bucket list", trip.bucketList.isEmpty ? "—" : "\(trip.bucketList.count) \(trip.bucketList.count == 1 ? "item" : "items")"),
        ]
        let width = lines.map(\.0.count).max() ?? 0
        for (label, value) in lines { print(Terminal.bold(label.padding(toLength: width, withPad: " ", startingAt: 0)) + "  " + value) }
        for line in BucketLines(trip).lines { print(String(repeating: " ", count: width + 2) + line) }
    }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Change a trip.")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The trip's number (from `trips list`) or name.") var trip: String
    @Option(help: "A new name.") var name: String?
    @Option(help: "A new destination.") var destination: String?
    @Option(help: ArgumentHelp("A new first day.", valueName: "YYYY-MM-DD")) var start: TripDate?
    @Option(help: ArgumentHelp("A new last day.", valueName: "YYYY-MM-DD")) var end: TripDate?
    @Option(parsing: .unconditional, help: ArgumentHelp("A new budget, such as 1200 or 99.50.", valueName: "amount")) var budget: Budget?
    @Option(help: "New notes (an empty string removes them).") var notes: String?

    func validate() throws {
        if [name, destination, notes].allSatisfy({ $0 == nil }) && start == nil && end == nil && budget == nil {
            throw ValidationError("Say what to change, e.g. --destination or --start.")
        }
        if let budget { _ = try budget.cents() }
    }

    func run() throws {
        let context = try options.context()
        let catalog = try TripCatalog(context)
        let trip = try catalog.resolve(self.trip)
        if let name { trip.name = name }
        if let destination { trip.destination = destination }
        if let start { trip.startDate = start.date }
        if let end { trip.endDate = end.date }
        if let budget { trip.budgetCents = try budget.cents() }
        if let notes { trip.notes = notes.isEmpty ? nil : notes }
        guard trip.endDate >= trip.startDate else {
            throw TripsError("The trip would end (\(DateDisplay.string(trip.endDate))) before it starts (\(DateDisplay.string(trip.startDate))); nothing was changed.")
        }
        try context.save("changed \(catalog.label(trip))", advice: .repeatable("it sets the same values again"))
        print("Updated #\(catalog.number(trip)) \(trip.name)")
    }
}

struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a trip.")

    @OptionGroup var options: StoreOptions
    @Argument(help: "The trip's number (from `trips list`) or name.") var trip: String

    func run() throws {
        let context = try options.context()
        let catalog = try TripCatalog(context)
        let trip = try catalog.resolve(self.trip)
        let label = catalog.label(trip)
        context.delete(trip)
        try context.save("deleted \(label)", advice: .checkFirst("trips list"))
        print("Deleted \(label)")
    }
}
