#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// How the server's large blocks (request bodies, their decoded values, SQLite's copies of them)
/// go back to the system once freed.
enum LargeAllocations {
    /// glibc raises its mmap threshold to the size of each large mapped block freed, up to 32 MiB;
    /// after the first large body, later ones come from per-thread arenas, which keep what is freed,
    /// so the server grew by several times each body it accepted. A fixed threshold disables that
    /// adjustment: each block of 128 KiB or more is a mapping of its own, unmapped when freed.
    /// `MALLOC_MMAP_THRESHOLD_` in the environment, glibc's own setting, still wins.
    static func returnToSystemWhenFreed() {
        #if canImport(Glibc)
        guard ProcessInfo.processInfo.environment["MALLOC_MMAP_THRESHOLD_"] == nil else { return }
        // Swift's Glibc module leaves out <malloc.h>, so mallopt is looked up in the process.
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        typealias Mallopt = @convention(c) (CInt, CInt) -> CInt
        let mmapThreshold: CInt = -3 // M_MMAP_THRESHOLD
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 128 * 1024)
        #endif
    }
}
