// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "onym-ledger",
    products: [
        .executable(name: "onym-ledger", targets: ["onym-ledger"]),
        .library(name: "LedgerFormat", targets: ["LedgerFormat"]),
        .library(name: "LedgerStore", targets: ["LedgerStore"]),
        .library(name: "LedgerWriter", targets: ["LedgerWriter"]),
        .library(name: "LedgerVerifier", targets: ["LedgerVerifier"]),
        .library(name: "LedgerReport", targets: ["LedgerReport"]),
        .library(name: "LedgerFollow", targets: ["LedgerFollow"]),
    ],
    targets: [
        .systemLibrary(name: "CLibgit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // TLS for the witness client (libssl); the other targets need only libcrypto.
        .systemLibrary(name: "CLibSSL", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The executables' memory allocator, in place of glibc's, linked through LedgerAllocator; the libraries
        // leave the choice to whoever links them.
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // The writer's deflate: libdeflate's whole-buffer compressor, twice as fast as zlib's on a ledger's blobs.
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(name: "LedgerFormat", dependencies: ["COpenSSL", "CSodium"]),
        // libgit2's start-up without parsing the system's certificate bundle (no command opens a remote).
        .target(name: "CGitStartup"),
        // Reading a ledger: the git repository (libgit2), durable files; no write code.
        .target(name: "LedgerStore", dependencies: ["LedgerFormat", "CLibgit2", "CZlib", "CGitStartup"]),
        // The auditor's offline verifier: small policies over a commit-by-commit replay.
        .target(name: "LedgerVerifier", dependencies: ["LedgerFormat", "LedgerStore"]),
        // The vendor's writer: plans a batch, has the verifier's policies judge it, then publishes it.
        .target(name: "LedgerReport", dependencies: ["LedgerFormat", "LedgerStore", "LedgerVerifier"]),
        .target(
            name: "LedgerWriter",
            dependencies: [
                "LedgerFormat", "LedgerStore", "LedgerVerifier", "CLibgit2", "COpenSSL", "CDeflate",
            ]),
        // C2SP tlog-witness over HTTP: the witness server and the log's submission client, both the project's
        // own over POSIX sockets (and libssl for https), so no verb loads FoundationNetworking and libcurl.
        .target(
            name: "LedgerWitness",
            dependencies: ["LedgerFormat", "LedgerStore", "LedgerVerifier", "LedgerWriter", "CLibSSL"]),
        // `follow`: mirrors a reference backend's SQLite store (read-only) into the ledger through the writer.
        .target(
            name: "LedgerFollow",
            dependencies: ["LedgerFormat", "LedgerStore", "LedgerVerifier", "LedgerWriter", "CSQLite"]),
        // jemalloc for the executables that link this (docs/DECISIONS.md, "The executables run on jemalloc").
        .target(name: "LedgerAllocator", dependencies: ["LedgerStore", "CJemalloc"]),
        .executableTarget(
            name: "onym-ledger",
            dependencies: [
                "LedgerFormat", "LedgerStore", "LedgerWriter", "LedgerVerifier", "LedgerReport", "LedgerWitness",
                "LedgerFollow", "LedgerAllocator",
            ]),
        // Deterministic parties and record builders shared by tests and fixture generators.
        .target(name: "LedgerTestSupport", dependencies: ["LedgerFormat"]),
        // Plays ledger-example/scenario.txt through the CLI (make example).
        .executableTarget(name: "ExampleGenerator", dependencies: ["LedgerFormat", "LedgerTestSupport"]),
        // Synthetic ledgers and the measured floor for benchmarks/run (not part of the tests).
        .executableTarget(
            name: "LedgerBench",
            dependencies: ["LedgerFormat", "LedgerStore", "LedgerWriter", "LedgerTestSupport", "LedgerAllocator"]),
        .testTarget(
            name: "LedgerTests",
            dependencies: [
                "LedgerFormat", "LedgerStore", "LedgerWriter", "LedgerVerifier", "LedgerReport", "LedgerWitness",
                "LedgerTestSupport", "LedgerFollow", "CLibgit2", "CGitStartup",
            ],
            resources: [.copy("Vectors")]
        ),
    ]
)

// Strict settings for every Swift target (STYLE.md guideline 19).
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
