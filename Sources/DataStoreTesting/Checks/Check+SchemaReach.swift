import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// A container made for a root type alone reaches the types its relationships lead to, and
    /// saves and reads back every relationship shape among them, as one listing every type does.
    static let schemaReach: [Self] = [
        Self("aManyToManyOfAContainerListingOnlyItsRootSavesFromBothSides") { harness in
            let container = try harness.makeContainer(for: [ConformancePlaylist.self])
            #expect(container.schema.entities.map(\.name).sorted() == ["ConformancePlaylist", "ConformanceSong"])
            let context = ModelContext(container)
            let one = ConformanceSong(number: 1, title: "One"), two = ConformanceSong(number: 2, title: "Two")
            let morning = ConformancePlaylist(number: 1, name: "Morning", songs: [one, two])
            context.insert(morning)
            try context.save()

            let three = ConformanceSong(number: 3, title: "Three")
            let evening = ConformancePlaylist(number: 2, name: "Evening")
            context.insert(evening)
            evening.songs = [two, three]
            three.playlists?.append(morning)
            #expect(morning.songs?.map(\.number) == [1, 2, 3], "the other side's append is linked back at once")
            try context.save()

            let reader = ModelContext(container)
            let playlists = try reader.fetch(FetchDescriptor<ConformancePlaylist>(sortBy: [SortDescriptor(\.number)]))
            #expect(playlists.map { ($0.songs ?? []).map(\.number).sorted() } == [[1, 2, 3], [2, 3]])
            let songs = try reader.fetch(FetchDescriptor<ConformanceSong>(sortBy: [SortDescriptor(\.number)]))
            #expect(songs.map { ($0.playlists ?? []).map(\.number).sorted() } == [[1], [1, 2], [1, 2]])
        },
        Self("everyShapeWithItsInverseOnTheOtherSideSavesWhenTheContainerListsOnlyTheRoot") { harness in
            let container = try harness.makeContainer(for: [ConformanceAlbum.self])
            #expect(container.schema.entities.map(\.name).sorted()
                == ["ConformanceAlbum", "ConformanceArtist", "ConformanceCover", "ConformanceTrack"])
            let context = ModelContext(container)
            let ann = ConformanceArtist(name: "Ann"), bob = ConformanceArtist(name: "Bob")
            let blue = ConformanceAlbum(title: "Blue", artists: [ann, bob], tracks: [ConformanceTrack(title: "a"), ConformanceTrack(title: "b")],
                                        cover: ConformanceCover(caption: "sky"))
            context.insert(blue)
            let green = ConformanceAlbum(title: "Green")
            context.insert(green)
            // Each relationship set from the side that declares the inverse.
            let track = ConformanceTrack(title: "c"), cover = ConformanceCover(caption: "grass")
            track.album = green
            bob.albums.append(green)
            cover.album = green
            #expect(green.tracks.map(\.title) == ["c"] && green.artists.map(\.name) == ["Bob"] && green.cover?.caption == "grass")
            try context.save()

            let reader = ModelContext(container)
            let albums = try reader.fetch(FetchDescriptor<ConformanceAlbum>(sortBy: [SortDescriptor(\.title)]))
            #expect(albums.map(\.title) == ["Blue", "Green"])
            #expect(albums.map { $0.artists.map(\.name).sorted() } == [["Ann", "Bob"], ["Bob"]])
            #expect(albums.map { $0.tracks.map(\.title).sorted() } == [["a", "b"], ["c"]])
            #expect(albums.map { $0.cover?.caption } == ["sky", "grass"])
            let tracks = try reader.fetch(FetchDescriptor<ConformanceTrack>(sortBy: [SortDescriptor(\.title)]))
            #expect(tracks.map { $0.album?.title } == ["Blue", "Blue", "Green"])
            let artists = try reader.fetch(FetchDescriptor<ConformanceArtist>(sortBy: [SortDescriptor(\.name)]))
            #expect(artists.map { $0.albums.map(\.title).sorted() } == [["Blue"], ["Blue", "Green"]])
            let covers = try reader.fetch(FetchDescriptor<ConformanceCover>(sortBy: [SortDescriptor(\.caption)]))
            #expect(covers.map { $0.album?.title } == ["Green", "Blue"])
        },
    ]
}
