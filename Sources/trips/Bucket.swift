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
            let trip = try TripReference(text: self.trip).resolve(in: context)
            let item = BucketListItem(title: title, details: details, hasReservation: reserved)
            trip.bucketList.append(item)
            try context.save()
            print("Added '\(title)' to #\(trip.number) \(trip.name) (\(trip.bucketList.count) on the list)")
        }
    }

    struct ListItems: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List a trip's bucket list.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The trip's number or name.") var trip: String

        func run() throws {
            let context = try options.context()
            let trip = try TripReference(text: self.trip).resolve(in: context)
            guard !trip.bucketList.isEmpty else {
                print("#\(trip.number) \(trip.name) has an empty bucket list. Add to it with `trips bucket add \(trip.number) TITLE`.")
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
            let trip = try TripReference(text: self.trip).resolve(in: context)
            let item = try BucketLines.item(titled: title, in: trip)
            item.isInPlan = true
            try context.save()
            print("Planned '\(item.title)' on #\(trip.number) \(trip.name)")
        }
    }

    struct RemoveItem: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a bucket-list item.")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The trip's number or name.") var trip: String
        @Argument(help: "The item's title.") var title: String

        func run() throws {
            let context = try options.context()
            let trip = try TripReference(text: self.trip).resolve(in: context)
            context.delete(try BucketLines.item(titled: title, in: trip))
            try context.save()
            print("Removed '\(title)' from #\(trip.number) \(trip.name)")
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
        let trip = try TripReference(text: self.trip).resolve(in: context)
        if let previous = trip.livingAccommodation { context.delete(previous) }
        trip.livingAccommodation = LivingAccommodation(placeName: place, address: address)
        try context.save()
        print("Staying at \(place) on #\(trip.number) \(trip.name)")
    }
}

/// A trip's bucket list as lines: `[x]` planned, `(R)` reserved.
struct BucketLines {
    let lines: [String]

    init(_ trip: Trip) {
        lines = trip.bucketList.sorted { $0.title < $1.title }.map { item in
            let details = item.details.isEmpty ? "" : " — \(item.details)"
            return "[\(item.isInPlan ? "x" : " ")] \(item.title)\(item.hasReservation ? " (R)" : "")\(details)"
        }
    }

    static func item(titled title: String, in trip: Trip) throws -> BucketListItem {
        guard let item = trip.bucketList.first(where: { $0.title == title }) else {
            throw TripsError("#\(trip.number) \(trip.name) has no bucket-list item '\(title)'. Run `trips bucket list \(trip.number)` to see them.")
        }
        return item
    }
}
