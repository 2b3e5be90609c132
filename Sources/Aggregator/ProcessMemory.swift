/// Process-wide memory settings for `feeds update`, whose peak resident memory is a goal
/// (40 MB for 200 feeds; see the README's benchmarks). About 31 MB of that is the shared
/// libraries (Swift runtime, Foundation, ICU, libcurl with its TLS stack, libxml2, SQLite), so
/// the run itself has about 9 MB; glibc's defaults waste a few of them:
/// - each thread that allocates gets its own malloc arena (up to 8 a core), and memory freed by
///   another thread (cards parsed on a worker, saved and released on the main thread) stays in
///   that arena's free lists: at most 4 arenas instead, one for each thread of the run (the
///   loop that fetches and saves, the parser, the search index's). One arena for the process
///   was tried and kept for a while: the threads then queued on its lock, a futex sleep and
///   wake-up each time (11,000-13,700 voluntary context switches in a cold update of the shared
///   yardstick's 200 feeds, ~40 % of them in malloc or free; 450-550 with 4 arenas), and the
///   update took 1.37-1.53 s where 4 arenas take 1.13-1.19 s (1,000 feeds: 7.7-8.4 s against
///   5.7-6.0 s, CPU 10.2-11.2 s against 8.1-8.4 s) for 0.5-1.3 MB more peak memory (2 arenas:
///   7.6 s, 3: 7.1 s, 8: 5.9 s);
/// - the threshold above which a block gets its own mapping grows with every such block
///   freed, so feed bodies of a few hundred KiB end up in the heap, which fragments and does not
///   shrink; a fixed 64 KiB threshold gives every large body back to the system when freed.
/// Measured on the 200-feed cold update with the parsing thread: 42.4 MB peak with glibc's
/// defaults, 40.1 MB with one arena and the threshold (before later cuts elsewhere).
public enum ProcessMemory {
    public static func tuneForUpdate() {
        #if os(Linux)
        _ = glibcMallopt(-8 /* M_ARENA_MAX */, 4)
        _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 64 << 10)
        #endif
    }

    /// For a command that reads everything once and exits (`feeds sources`): a block freed is
    /// kept for the next one instead of unmapped, so the arrays of 5,000 sources built one
    /// after the other (the file's, the store's, the listing's) reuse the same pages instead
    /// of each faulting in new ones (3,700 page faults instead of 4,400 on a million cards).
    /// Not for `update`, whose peak memory is a goal (`tuneForUpdate`).
    public static func tuneForShortListing() {
        #if os(Linux)
        _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 32 << 20)  // glibc's largest on 64-bit
        #endif
    }

    /// Keeps `value` (and what it holds) until the process exits, never freed: for what a
    /// short command reads once and drops as it ends, when the process is about to exit and
    /// the system takes its memory back whole. Freeing 5,000 sources' entries and stored
    /// states one string at a time was a tenth of `feeds sources` (30 M of 220 M instructions).
    public static func keepUntilExit<T>(_ value: T) {
        _ = Unmanaged.passRetained(KeptUntilExit(value))
    }
}

private final class KeptUntilExit<T> {
    let value: T
    init(_ value: T) { self.value = value }
}

#if os(Linux)
// <malloc.h> is not part of Swift's Glibc module.
@_silgen_name("mallopt") private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
