import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// Each module does one job and the command line only parses and prints: reading a ledger lives below the
/// writer, the raw-write API is the tests' own, writing goes through an explicit ``Appender`` (no process-wide
/// state saved at exit), the read-only verbs do not link the writer's API, and the rules of a descriptor and
/// the reading of a repository are library functions.
@Suite("Module edges")
struct ModuleEdgeTests {
    static let sources = RepositoryTextTests.root.appendingPathComponent("Sources").path

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
    }

    /// The Swift files under `folder`, relative to Sources.
    static func files(under folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: sources + "/" + folder).filter { $0.hasSuffix(".swift") }
            .map { folder + "/" + $0 }
    }

    /// Browsing (`log`, `show`, `prove`'s names) only reads: it lives in LedgerStore, which has no write code
    /// and which the verifier and the writer both build on; the writer declares none of it.
    @Test func browsingLivesWithTheReadersNotTheWriter() throws {
        #expect(String(reflecting: LedgerStore.LedgerBrowser.self) == "LedgerStore.LedgerBrowser")
        #expect(String(reflecting: LedgerStore.LedgerReference.self) == "LedgerStore.LedgerReference")
        for file in try Self.files(under: "LedgerWriter") {
            let text = try Self.text(file)
            #expect(!text.contains("enum LedgerBrowser") && !text.contains("enum LedgerReference"), "\(file)")
        }
    }

    /// The raw writes that bypass the ledger's rules are `package`: this package's tests build hostile
    /// histories with them; no library user sees them.
    @Test func theRawWriteAPIIsThePackagesOwn() throws {
        let text = try Self.text("LedgerWriter/Git/Repository+Raw.swift")
        let publicLines = text.split(separator: "\n").filter { $0.contains("public ") }
        #expect(publicLines.isEmpty, "\(publicLines)")
        #expect(text.contains("package func writeRawCommit"))
    }

    /// Writing is open, append, close: no process-wide replay state, nothing deferred to the process's exit.
    @Test func theWriterKeepsNoProcessWideStateAndNothingRunsAtExit() throws {
        for file in try Self.files(under: "LedgerWriter") {
            let text = try Self.text(file)
            #expect(!text.contains("atexit"), "\(file)")
            #expect(!text.contains("static let shared"), "\(file)")
        }
        #expect(!(try Self.text("LedgerWriter/Ledger.swift")).contains("static func append("))
    }

    /// The verbs that only read do not import the writer; the ones that write (`witness submit` and `follow`
    /// append too) and `keygen`, whose key loading is the writer's, may.
    @Test func readOnlyVerbsDoNotImportTheWriter() throws {
        let writing: Set<String> = [
            "Append.swift", "Init.swift", "Keys.swift", "Repack.swift", "Keygen.swift", "WitnessSubmit.swift",
            "Follow.swift",
        ]
        for file in try Self.files(under: "onym-ledger/Subcommands") {
            let name = String(file.split(separator: "/").last!)
            let imports = try Self.text(file).split(separator: "\n").contains { $0 == "import LedgerWriter" }
            #expect(!imports || writing.contains(name), "\(file) imports LedgerWriter")
        }
        for verb in ["Verify", "Gate", "Reconcile"] {
            #expect(!(try Self.text("onym-ledger/Subcommands/\(verb).swift")).contains("import LedgerWriter"))
        }
    }

    /// `git-setup` and `keys list` read the repository through `LedgerKeys`; `init` leaves the account
    /// scope's rules to `LedgerDescriptor.AppleAccount`.
    @Test func theCommandLineLeavesReadingAndRulesToTheLibrary() throws {
        for verb in ["GitSetup", "Keys"] {
            #expect(!(try Self.text("onym-ledger/Subcommands/\(verb).swift")).contains("Repository.open"), "\(verb)")
        }
        let initVerb = try Self.text("onym-ledger/Subcommands/Init.swift")
        #expect(!initVerb.contains("isAppleTeamId") && !initVerb.contains("isBundleIdentifier"))
    }

    /// The account scope's rules, one place: a team and its apps together, a team id, bundle identifiers —
    /// what `init` refuses and what the decoder refuses in `ledger.json` agree.
    @Test(
        arguments: [
            (nil, [], nil),
            ("ONYMTEAM01", ["app.onym.chat"], nil),
            ("ONYMTEAM01", [], LedgerDescriptor.AppleAccount.Violation.unpaired),
            (nil, ["app.onym.chat"], .unpaired),
            ("onymteam01", ["app.onym.chat"], .teamId("onymteam01")),
            ("ONYMTEAM01", ["app.onym.chat", "chat"], .app("chat")),
        ] as [(String?, [String], LedgerDescriptor.AppleAccount.Violation?)])
    func accountScopeRules(_ teamId: String?, _ apps: [String], _ violation: LedgerDescriptor.AppleAccount.Violation?)
        throws
    {
        let account: LedgerDescriptor.AppleAccount?
        do {
            account = try LedgerDescriptor.AppleAccount.checked(teamId: teamId, apps: apps)
        } catch {
            #expect(error == violation)
            guard let teamId, !apps.isEmpty else { return }
            // The decoder refuses the same scope.
            var descriptor = LedgerDescriptor(ledgerId: "l", interface: "onym:component:i")
            descriptor.appleAccount = .init(teamId: teamId, apps: apps)
            #expect(throws: LedgerFormatError.self) { try LedgerDescriptor(json: descriptor.json) }
            return
        }
        #expect(violation == nil)
        #expect((account == nil) == (teamId == nil))
    }

    /// The command line links no FoundationNetworking, nor the libcurl chain it brings (gnutls, nghttp2,
    /// ldap, …): every verb, `--version` included, paid for loading them at start. The witness client is the
    /// project's own HTTP over sockets and libssl (docs/DECISIONS.md, "The witness client is our own").
    @Test func theCommandLineDoesNotLinkFoundationNetworking() {
        let linked = runProcess("ldd", [CLI.binary])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout.contains("libFoundation"), "ldd lists the libraries: \(linked.stdout)")
        #expect(!linked.stdout.contains("FoundationNetworking"), "\(linked.stdout)")
        #expect(!linked.stdout.contains("libcurl"), "\(linked.stdout)")
    }
}

/// The writer as an object: ``Appender/open(_:)`` takes the writer lock and ``Appender/close()`` saves the
/// replay state and releases it; batches appended in between are judged from the state it advances.
@Suite("Appender")
struct AppenderTests {
    @Test func openAppendCloseHoldsTheLockAndSavesTheStateOnce() throws {
        let scenario = LedgerScenario()
        let key = try SigningKey.load(scenario.signer)
        let before = scenario.tip
        let appender = try Appender.open(scenario.ledger)
        // Held: another writer's flock on the lock file fails at once.
        let lockPath = scenario.ledger + "/" + WriterLock.fileName
        let other = open(lockPath, O_RDWR)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0)
        for (index, binding) in ["enrollment:device-1", "enrollment:device-2"].enumerated() {
            let bytes = CanonicalJSON.encode(scenario.mandate(binding: binding))
            let item = try BatchImporter.read(bytes, source: "mandate-\(index)")
            let result = try appender.append(
                items: [item], signingKey: key, at: Instant.parse("2026-08-09T00:00:0\(index)Z")!)
            #expect(result.commit != nil)
        }
        let repository = try Repository.open(scenario.ledger)
        let tip = try #require(try repository.referenceTarget(LedgerLayout.branch))
        #expect(tip.hex != before)
        let now = Instant.parse("2026-08-10T00:00:00Z")!
        // Not saved before close: the state files still name an earlier tip.
        #expect(WriterStateFile.load(at: tip, in: repository, signer: key.publicKey, now: now) == nil)
        appender.close()
        // Released. A process another test spawns at that moment may hold the descriptor until its exec closes
        // it (the lock file is opened close-on-exec), so the lock is tried again for a while, never waited on.
        var released = flock(other, LOCK_EX | LOCK_NB) == 0
        for _ in 0..<200 where !released {
            usleep(10_000)
            released = flock(other, LOCK_EX | LOCK_NB) == 0
        }
        #expect(released)
        flock(other, LOCK_UN)
        // Saved at close: the state at the new tip, equal to a rebuild from its tree.
        let saved = try #require(WriterStateFile.load(at: tip, in: repository, signer: key.publicKey, now: now))
        let rebuilt = try CandidateCommit.rebuiltState(at: tip, in: repository, signer: key.publicKey, now: now)
        #expect(ReplayStateFsckTests.firstDifference(saved, rebuilt) == nil)
        appender.close()  // a second close does nothing
    }

    /// The records a published batch stores are kept for the batches after it (`RecordCache.keep(_:)`): a
    /// later batch's verdict finds the mandate it names without reading it again — here, with no tree to
    /// read from at all.
    @Test func aPublishedBatchsRecordsAreKeptForTheNextBatches() throws {
        let scenario = LedgerScenario()
        let key = try SigningKey.load(scenario.signer)
        let appender = try Appender.open(scenario.ledger)
        defer { appender.close() }
        let mandate = scenario.mandate(binding: "enrollment:device-9")
        let item = try BatchImporter.read(CanonicalJSON.encode(mandate), source: "mandate")
        let repository = try Repository.open(scenario.ledger)
        let lookup = RecordLookup(repository: repository, tree: nil, cache: appender.records)
        let address = try Mandate(json: mandate).address
        #expect(try lookup.record(Mandate.self, address, index: RecordIndex()) == nil)
        let result = try appender.append(items: [item], signingKey: key, at: Instant.parse("2026-08-09T00:00:00Z")!)
        #expect(result.commit != nil)
        let kept = RecordLookup(repository: repository, tree: nil, cache: appender.records)
        #expect(try kept.record(Mandate.self, address, index: RecordIndex())?.address == address)
        #expect(kept.reads == 0)
    }
}

/// Unknown fields are told by their keys' bytes, as every key comparison of the format is.
@Suite("Unknown fields")
struct UnknownFieldTests {
    /// A key canonically equivalent to an allowed one but not the same bytes — `interfaceKeys` spelled with
    /// a Kelvin sign (U+212A), which Swift's `String` equality takes for `K` — is an unknown field, next to
    /// the real one as much as alone; a plainly unknown key is named in the error, and a descriptor with
    /// only its own keys decodes.
    @Test func aKeyEquivalentToAnAllowedOneButNotItsBytesIsUnknown() throws {
        let descriptor = LedgerDescriptor(ledgerId: "l", interface: "onym:component:i")
        #expect(try LedgerDescriptor(json: descriptor.json) == descriptor)
        let kelvin = "interface\u{212A}eys"
        #expect(kelvin == "interfaceKeys", "Swift's equality, which the check must not use")
        for (extra, replacing) in [(kelvin, false), (kelvin, true), ("colour", false)] {
            var object = descriptor.json
            if replacing { object.remove("interfaceKeys") }
            object.set(extra, .object(JSONObject()))
            do {
                _ = try LedgerDescriptor(json: object)
                Issue.record("\(extra) accepted")
            } catch {
                #expect(error.code == .unknownField, "\(extra): \(error)")
                #expect(error.description.contains(extra), "\(error)")
            }
        }
    }
}
