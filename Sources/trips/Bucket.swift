import ArgumentParser
import Foundation
import OpenSwiftData
import SampleTrips

struct Bucket: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage a trip's bucket list.",
        subcommands: [AddItem.self, ListItems.self, PlanItem.self, RemoveItem.self],
        defaultSubcommand: ListItems.self
    )

    struct AddItem: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a bucket-list item to a trip.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The trip's number or name.") var trip: String
        @Argument(help: "What to do.") var title: String
        @Option(help: "More about it.") var details: String = ""
        @Flag(help: "A reservation is made.") var reserved = false

        func run() throws {
            let context = try options.context()
            let catalog = try TripCatalog(context)
            let trip = try catalog.resolve(self.trip)
            let item = BucketListItem(title: title, details: details, hasReservation: reserved)
            trip.bucketList.append(item)
            try context.save("added '\(title)' to \(catalog.label(trip))", advice: .checkFirst("trips bucket list \(catalog.number(trip))"))
            print("Added '\(title)' to \(catalog.label(trip)) (\(trip.bucketList.count) on the list)")
        }
    }

    struct ListItems: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List a trip's bucket list.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The trip's number or name.") var trip: String
        @Flag(help: "Print the items as JSON.") var json = false

        func run() throws {
            let context = try options.context()
            let catalog = try TripCatalog(context)
            let trip = try catalog.resolve(self.trip)
            if json {
                print(try TripJSON.string(TripJSON.items(trip)))
                return
            }
            guard !trip.bucketList.isEmpty else {
                print("\(catalog.label(trip)) has an empty bucket list. Add to it with `trips bucket add \(catalog.number(trip)) TITLE`.")
                return
            }
            for line in BucketLines(trip).lines { print(line) }
        }
    }

    struct PlanItem: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "plan", abstract: "Put a bucket-list item in the plan.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The trip's number or name.") var trip: String
        @Argument(help: "The item's title.") var title: String

        func run() throws {
            let context = try options.context()
            let catalog = try TripCatalog(context)
            let trip = try catalog.resolve(self.trip)
            let item = try BucketLines.item(titled: title, in: trip, catalog: catalog)
            item.isInPlan = true
            try context.save("planned '\(item.title)' on \(catalog.label(trip))", advice: .repeatable("it plans the same item again"))
            print("Planned '\(item.title)' on \(catalog.label(trip))")
        }
    }

    struct RemoveItem: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a bucket-list item.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The trip's number or name.") var trip: String
        @Argument(help: "The item's title.") var title: String

        func run() throws {
            let context = try options.context()
            let catalog = try TripCatalog(context)
            let trip = try catalog.resolve(self.trip)
            context.delete(try BucketLines.item(titled: title, in: trip, catalog: catalog))
            try context.save("removed '\(title)' from \(catalog.label(trip))", advice: .checkFirst("trips bucket list \(catalog.number(trip))"))
            print("Removed '\(title)' from \(catalog.label(trip))")
        }
    }
}

struct Stay: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Set where you stay on a trip.")
    @OptionGroup var options: StoreOptions
    @Argument(help: "The trip's number or name.") var trip: String
    @Option(help: "The place's name.") var place: String
    @Option(help: "Its address.") var address: String = ""

    func run() throws {
        let context = try options.context()
        let catalog = try TripCatalog(context)
        let trip = try catalog.resolve(self.trip)
        if let previous = trip.livingAccommodation { context.delete(previous) }
        trip.livingAccommodation = LivingAccommodation(placeName: place, address: address)
        try context.save("set the stay on \(catalog.label(trip))", advice: .repeatable("it sets the same stay again"))
        print("Staying at \(place) on \(catalog.label(trip))")
    }
}

/// A trip's bucket list as lines: `[x]` planned, `(R)` reserved.
struct BucketLines {
    let lines: [String]

    init(_ trip: Trip) {
        lines = Self.sorted(trip).map { item in
            let details = item.details.isEmpty ? "" : " — \(item.details)"
            return "[\(item.isInPlan ? "x" : " ")] \(item.title)\(item.hasReservation ? " (R)" : "")\(details)"
        }
    }

    static func sorted(_ trip: Trip) -> [BucketListItem] {
        trip.bucketList.sorted { $0.title < $1.title }
    }

    static func item(titled title: String, in trip: Trip, catalog: TripCatalog) throws -> BucketListItem {
        guard let item = trip.bucketList.first(where: { $0.title == title }) else {
            throw TripsError("\(catalog.label(trip)) has no bucket-list item '\(title)'. Run `trips bucket list \(catalog.number(trip))` to see them.")
        }
        return item
    }
}
