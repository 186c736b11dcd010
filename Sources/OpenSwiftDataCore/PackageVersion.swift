/// This package's version, as tagged in git and listed in CHANGELOG.md; the executables print it
/// for `--version`.
package enum PackageVersion {
    package static let current = "0.1.0"
}
