import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child" {
        try Child.main(Array(arguments.dropFirst()))
    } else {
        try Runner.main(arguments)
    }
} catch {
    FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
    exit(1)
}
