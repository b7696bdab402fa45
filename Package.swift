// swift-tools-version:6.2
import PackageDescription

// Strict settings for every target, in one place (as swift-log and hummingbird do).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "bok",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bok", targets: ["Client"]),
        .executable(name: "bok-bench", targets: ["BokBench"]),
        .executable(name: "reader-bench", targets: ["ReaderBench"]),
        .executable(name: "shelf-bench", targets: ["ShelfBench"]),
        .executable(name: "mock-bench", targets: ["MockBench"]),
        .executable(name: "bok-fuzz", targets: ["BokFuzz"]),
        .library(name: "MockLending", targets: ["MockLending"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Already resolved through hummingbird; named so MockLending can import NIOCore (Channel).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // Also resolved through hummingbird; MockLending names HTTP fields and statuses with it.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // SQLite for the Shelf's storage (system SQLite on Linux: libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // The shell's command line: typed options, --help, completion scripts and the man page from one definition.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Rendering tests of the main screens against snapshot files (tests only).
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.19.7"),
    ],
    targets: [
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        // zlib's inflate for the Reader's own zip reader (see Sources/Reader/Zip/ZipArchive.swift).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // libpng and libjpeg(-turbo) decode the pictures the Reader draws as text cells.
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
        // libwebp and giflib decode WebP and GIF pictures.
        .systemLibrary(name: "CWebP", path: "Sources/CWebP"),
        .target(name: "CGif", path: "Sources/CGif", linkerSettings: [.linkedLibrary("gif")]),
        // libhyphen breaks words at the points of a language's hyphenation patterns (Sources/Reader).
        .systemLibrary(name: "CHyphen", path: "Sources/CHyphen"),
        // GNU FriBidi orders right-to-left (Arabic, Hebrew) lines for display (Sources/Reader/Layout/Bidi.swift).
        .systemLibrary(name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi"),
        // eSpeak NG reads books aloud (Sources/Speech).
        .target(name: "CESpeak", path: "Sources/CESpeak", linkerSettings: [.linkedLibrary("dl")]),
        // speech-dispatcher's client (libspeechd-dev), loaded at first use like eSpeak NG.
        .target(name: "CSpeechd", path: "Sources/CSpeechd", linkerSettings: [.linkedLibrary("dl")]),
        // ALSA playback for reading aloud through the machine's sound output.
        .target(name: "CALSA", path: "Sources/CALSA", linkerSettings: [.linkedLibrary("dl")]),
        // Chafa encodes pictures as Sixel, kitty or iTerm2 images; loaded when the first picture is drawn.
        .target(name: "CChafa", path: "Sources/CChafa", linkerSettings: [.linkedLibrary("dl")]),
        // libavif and libjxl decode AVIF and JPEG XL pictures; each loaded at the first such picture.
        .target(name: "CAVIF", path: "Sources/CAVIF", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CJXL", path: "Sources/CJXL", linkerSettings: [.linkedLibrary("dl")]),
        // librsvg draws a book's SVG pictures; loaded with cairo when the first one is decoded.
        .target(name: "CRsvg", path: "Sources/CRsvg", linkerSettings: [.linkedLibrary("dl")]),
        // The one place outside text is made safe to draw (control characters, bidi isolation).
        .target(name: "TextSafety"),
        // libcurl's easy interface for bok's HTTP clients: a deadline, a size cap while streaming
        // (Sources/Catalog/HTTP/HTTPTransfer.swift). Loaded at the first exchange, not linked (bok_curl.c says why).
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // glibc's libintl: gettext for the interface language (Sources/Localization).
        .systemLibrary(name: "CIntl", path: "Sources/CIntl"),
        .target(name: "Localization", dependencies: ["CIntl"]),
        // Files written where a person or a scenario names a path (a WAV, a report): never over
        // what bok did not create, never half-written (Sources/SafeOutput/OutputFile.swift).
        .target(name: "SafeOutput", dependencies: ["Localization"]),
        // The XML and HTML tokenizer the Reader reads books with, and the namespace-aware XML reader
        // Catalog reads Atom feeds with (no libxml2, so no libxml2 and ICU loaded at every start).
        .target(name: "Markup", dependencies: ["TextSafety"]),
        .target(name: "Terminal", dependencies: ["CReadline", "CChafa", "TextSafety", "Localization"]),
        // Text to speech with word and sentence events, and WAV files (eSpeak NG).
        .target(name: "Speech", dependencies: ["CESpeak", "CSpeechd", "CALSA", "Localization", "SafeOutput"]),
        .target(
            name: "Catalog",
            dependencies: [
                "TextSafety", "CCurl", "Localization", "Markup",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the reader keeps about a book (its place, notes, settings, pace) and the store it keeps
        // them in: the Reader writes them, the Shelf's database stores them, neither needs the other.
        .target(
            name: "ReadingState",
            dependencies: ["Localization", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "Shelf",
            // ReadingState for the PositionStore protocol the shelf's database implements.
            dependencies: [
                "Catalog", "ReadingState", "TextSafety", "Localization",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's column text, for dates read without a String each (Records/StoredDate.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SHA-256 of downloaded books.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "Reader",
            dependencies: [
                "ReadingState", "Terminal", "TextSafety", "Speech", "Localization", "Markup", "CZlib", "CPNG",
                "CJPEG", "CWebP",
                "CGif", "CHyphen", "CFriBidi", "CRsvg", "CAVIF", "CJXL",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "MockLending",
            dependencies: [
                "Catalog",
                // PatronFacingError: the words a failed start says.
                "Localization",
                // The index cache is written beside its place and renamed into it (Search/IndexCache.swift).
                "SafeOutput",
                // zlib's deflate and CRC-32 for the generated EPUBs and their PNGs (Books/Container).
                "CZlib",
                // SHA-256 for the Repr-Digest of book downloads.
                .product(name: "Crypto", package: "swift-crypto"),
                // The state every bok --mock of a user shares (State/SharedState.swift).
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // AvailableConnectionsDelegate: the mock's cap on open connections.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Mocks/MockLending"
        ),
        .executableTarget(
            name: "Client",
            // CFuzzDriver only for the -D FUZZING build that fuzzes the scenario parser (make fuzz).
            dependencies: [
                "Catalog", "Shelf", "Reader", "Speech", "Terminal", "TextSafety", "MockLending", "CFuzzDriver",
                "Localization", "SafeOutput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The toolchain's ICU, which Foundation loads anyway: scenario patterns are matched with its
            // step and stack limits (Sources/Client/Scenarios/ScreenPattern.swift).
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
        ),
        // What the three benchmarks share: median and percentile.
        .target(name: "BenchSupport", path: "Benchmarks/BenchSupport"),
        .executableTarget(
            name: "BokBench",
            dependencies: ["BenchSupport", "Catalog", "MockLending"],
            path: "Benchmarks/BokBench"
        ),
        .executableTarget(
            name: "ShelfBench",
            dependencies: [
                "BenchSupport", "Catalog", "Shelf", "Reader", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/ShelfBench"
        ),
        .executableTarget(
            name: "MockBench",
            dependencies: ["BenchSupport", "MockLending", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/MockBench"
        ),
        .executableTarget(
            name: "ReaderBench",
            // MockLending's zip and PNG writers package the generated novel.
            dependencies: ["BenchSupport", "Reader", "Terminal", "MockLending"],
            path: "Benchmarks/ReaderBench"
        ),
        // The parsers of untrusted bytes for libFuzzer (make fuzz) and for replaying saved inputs.
        .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .executableTarget(name: "BokFuzz", dependencies: ["Catalog", "Reader", "CFuzzDriver"], path: "Fuzz/BokFuzz"),
        // What tests share: a pseudo-terminal, servers on loopback (calibre's, a hostile one), child processes,
        // and lending services that stand in for a library (Catalog's protocols).
        .target(
            name: "TestSupport", dependencies: ["Catalog"], path: "Tests/TestSupport", exclude: ["calibre_server.py"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "TestSupport"]),
        .testTarget(
            name: "ShelfTests",
            dependencies: [
                "Shelf", "Catalog", "Reader", "MockLending", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ReaderTests",
            dependencies: ["Reader", "Markup", "Terminal", "Localization", "CZlib", "CWebP", "TestSupport"]),
        .testTarget(name: "MarkupTests", dependencies: ["Markup"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "TestSupport"]),
        .testTarget(name: "TextSafetyTests", dependencies: ["TextSafety"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech"]),
        .testTarget(name: "SafeOutputTests", dependencies: ["SafeOutput"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["BokFuzz"]),
        // Reader opens the generated books, as the client will.
        .testTarget(
            name: "MockLendingTests",
            dependencies: [
                "MockLending", "Catalog", "Reader", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ClientTests",
            dependencies: [
                "Client", "MockLending", "Catalog", "Terminal", "Shelf", "Reader", "TestSupport", "Localization",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            // The screens the snapshot tests compare against are read from the source tree, not bundled.
            exclude: ["__Snapshots__"]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}

// Release executables are linked by lld with packed relative relocations (DT_RELR, glibc 2.36 and
// later), and without every symbol in the dynamic symbol table, which the static Swift runtime's
// link arguments ask for (`-export-dynamic`). Each costs pages the dynamic loader reads at every
// start: 3 MB of RELA relocations, 2 MB of exported symbols and their names; the reader's first page
// takes about 4 MB less memory (docs/performance.md, "Start-up pages of the binary"). Crash
// backtraces still name functions: Swift's backtracer reads the full symbol table, not the dynamic one.
//
// The code is also laid out for the start-up: each function is compiled into a section of its own,
// and lld puts the ones `bok read` runs to its first page (Benchmarks/startup.order, written by
// Benchmarks/startup-order.sh) together at the front. The kernel maps up to 64 KB of a cached
// executable around every page a program touches; spread over 26 MB of code, the 1.3 MB a start
// runs brought 14.5 MB of it into memory (docs/performance.md, "Code laid out for the start-up").
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Benchmarks/startup.order",
            // The list names bok's functions; the benchmarks link only some of them.
            "-Xlinker", "--no-warn-symbol-ordering",
        ],
        .when(platforms: [.linux], configuration: .release))
]
for target in package.targets where target.type != .system && target.type != .test {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))
        ]
}
// Not the fuzzer: AddressSanitizer's runtime relies on what the executable exports.
for target in package.targets where target.type == .executable && target.name != "BokFuzz" {
    target.linkerSettings = (target.linkerSettings ?? []) + releaseLinking
}
