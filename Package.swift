// swift-tools-version:6.0
// The package graph is the architecture: each arrow below is an import the compiler allows,
// and every missing arrow is one it refuses (the model knows nothing; parsing knows no network
// and no storage; fetching knows no XML; storage knows no HTML).
import PackageDescription

let package = Package(
    name: "feeds",
    products: [
        .executable(name: "feeds", targets: ["feeds"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages, one system-library target each.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // libcurl's headers only, with no pkg-config: its `-lcurl` would link what CCurlShim
        // loads on first use (the headers are on the compiler's default path on Debian).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libcurl's functions for Swift: typed wrappers of its variadic calls, and the library
        // loaded on first use instead of linked (see its header: start-up of every command);
        // with libc's epoll and eventfd, which its socket interface waits on (Glibc has neither).
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Sources/CCurlShim"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The relevance score of a search (bm25 without counting a one-phrase query's matches
        // first), an FTS5 auxiliary function in C on SQLite's extension API.
        .target(name: "CSQLiteRanking", dependencies: ["CSQLite"], path: "Sources/CSQLiteRanking"),
        // libpq's headers only, with no pkg-config (its `-lpq` would link what CLibPQShim loads
        // on first use), for the PostgreSQL store (issue 22).
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        // libpq's functions for Swift, the library loaded on first use instead of linked (see
        // its header: start-up of every command, PostgreSQL or not).
        .target(name: "CLibPQShim", dependencies: ["CLibPQ"], path: "Sources/CLibPQShim"),

        // The card model: plain values, no imports at all.
        .target(name: "FeedModel"),
        // HTML on libxml2's HTML parser: sanitizer, HTML to text, entities.
        .target(name: "Markup", dependencies: ["FeedModel", "CLibXML2"]),
        // Feeds (RSS/Atom/RDF/JSON Feed) to cards. No network, no storage.
        .target(name: "FeedParsing", dependencies: ["FeedModel", "Markup", "CLibXML2"]),
        // HTTP over libcurl multi. Knows bytes and headers, not XML (dates as the model's Timestamp).
        .target(name: "Fetching", dependencies: ["FeedModel", "CCurlShim"]),
        // The store of sources, fetch state and cards, behind one interface (`SourceStore`,
        // `FetchStateStore`, `CardReadingStore`, `CardSearchStore`, `CardRetentionStore`,
        // `BrowseStore`, `ImageRecordStore`; `SourceLeasing` and `SharedHostState` for many
        // workers): SQLite (`FeedStore`, the
        // embedded default) and PostgreSQL (`PostgresStore`).
        // Knows no HTML; no SQLite or libpq type leaves it.
        .target(name: "Storage", dependencies: ["FeedModel", "CSQLite", "CSQLiteRanking", "CLibPQShim"]),

        // Sources file, paths, OPML, the schedule policy and the update runner: the layer that
        // joins parsing, fetching and storage.
        .target(name: "Aggregator", dependencies: ["FeedModel", "Markup", "FeedParsing", "Fetching", "Storage"]),
        // The text reader: cards from the store to wrapped terminal text or JSON. No fetching.
        .target(name: "Reader", dependencies: ["FeedModel", "Markup", "Storage"]),
        // Static digest pages from stored cards. Knows no fetching: images come in as files.
        .target(name: "HTMLDigest", dependencies: ["FeedModel", "Markup", "Storage"]),
        // Images on disk by URL hash, metadata in the store, downloads through the fetcher.
        .target(name: "ImageCache", dependencies: ["FeedModel", "Fetching", "Storage"]),
        // Programs started for a person (the pager; the browser next): posix_spawn in the
        // terminal's foreground process group, Ctrl-C left to the child, the terminal's modes
        // put back; and writes that count what the reader took. Imports nothing but the C library.
        .target(name: "Console"),
        // `feeds browse`: the full-screen reader. Its screen is a pure function of a state
        // (BrowseDrawing); a thin key loop on termios raw mode and ANSI sequences changes the
        // state, reads and marks cards in the store and starts the browser through Console.
        .target(name: "Browse", dependencies: ["FeedModel", "Markup", "Reader", "Storage", "Console"]),

        .executableTarget(
            name: "feeds",
            dependencies: ["FeedModel", "Markup", "FeedParsing", "Fetching", "Storage", "Aggregator",
                           "Reader", "HTMLDigest", "ImageCache", "Console", "Browse"]
        ),

        // Fuzz targets (issue 7): a libFuzzer binary when built with -DFUZZING and
        // --sanitize=fuzzer (tools/fuzz.sh), otherwise a replayer of saved inputs.
        .target(name: "ContractChecks", dependencies: ["FeedModel", "Markup", "FeedParsing", "Fetching", "Aggregator", "Reader", "Storage"]),
        .executableTarget(name: "feeds-fuzz", dependencies: ["ContractChecks"], path: "Fuzz"),

        // Shared test helpers: loopback HTTP server, temporary directories, fixtures, running the CLI,
        // running it on a pseudo-terminal with a screen model.
        .target(name: "TestSupport", dependencies: ["CPseudoTerminal"], path: "Tests/TestSupport"),
        // The pseudo-terminal calls Swift's Glibc module does not declare (they need _GNU_SOURCE).
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        .testTarget(name: "FeedModelTests", dependencies: ["FeedModel", "TestSupport"]),
        .testTarget(name: "MarkupTests", dependencies: ["Markup", "TestSupport"]),
        .testTarget(name: "FeedParsingTests", dependencies: ["FeedParsing", "TestSupport"]),
        .testTarget(name: "FetchingTests", dependencies: ["Fetching", "TestSupport"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
        .testTarget(name: "ConsoleTests", dependencies: ["Console"]),
        .testTarget(name: "BrowseTests", dependencies: ["Browse", "Reader", "Storage", "FeedModel", "TestSupport"]),
        .testTarget(name: "HTMLDigestTests", dependencies: ["HTMLDigest", "Storage", "FeedModel", "Markup", "CLibXML2", "TestSupport"]),
        .testTarget(name: "ImageCacheTests", dependencies: ["ImageCache", "Storage", "Fetching", "FeedModel", "TestSupport"]),
        .testTarget(name: "ReaderTests", dependencies: ["Reader", "Storage", "FeedModel", "TestSupport"]),
        .testTarget(name: "HardeningTests", dependencies: ["ContractChecks", "FeedModel", "TestSupport"]),
        .testTarget(name: "AggregatorTests", dependencies: ["Aggregator", "Storage", "Fetching", "FeedModel", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
