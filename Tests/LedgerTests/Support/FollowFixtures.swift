import Foundation
import LedgerFormat
import LedgerTestSupport

/// A reference backend store on disk, made and changed by the stock `sqlite3` tool (another process) from
/// ``BackendStoreScript`` text.
struct BackendStoreFile {
    let path: String
    private let scratch: String
    private static let counter = Counter()

    init(path: String) {
        self.path = path
        self.scratch = path + ".scripts"
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    /// Runs the script's statements not yet run, as one transaction in a `sqlite3` process.
    func run(_ script: inout BackendStoreScript) {
        run(sql: script.take())
    }

    func run(sql: String) {
        let file = scratch + "/\(Self.counter.next()).sql"
        try! Data(sql.utf8).write(to: URL(fileURLWithPath: file))
        let result = runProcess("sqlite3", [path, ".read \(file)"])
        precondition(result.status == 0, "sqlite3 failed: \(result.stderr)")
    }

    /// One query's output (`sqlite3 -separator |`).
    func query(_ sql: String) -> String {
        runProcess("sqlite3", [path, sql]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}

/// A backend's life in the scenario's parties: devices enrol and consent (mandates), the authority opens
/// cases and bans (verdicts), the backend writes the bits (write log), a second a step from `start`.
struct SyntheticBackend {
    let scenario: LedgerScenario
    var script = BackendStoreScript()
    var clock: Instant
    private(set) var devices = 0

    init(scenario: LedgerScenario, start: String = "2026-08-02T00:00:00Z") {
        self.scenario = scenario
        self.clock = Instant.parse(start)!
    }

    mutating func tick() -> String {
        clock = clock.adding(seconds: 1)
        return clock.rfc3339
    }

    /// `count` more devices: each consents, gets a case opened (the manifest attached as it arrives), and its
    /// case-open bit written; every third is then banned and its banned bit written.
    mutating func addDevices(_ count: Int) {
        for _ in 0..<count {
            devices += 1
            let binding = "enrollment:device-\(devices)"
            let user = Ed25519.PrivateKey(seed: FixtureSeed.labelled("follow-user-\(devices)"))!
            let at = tick()
            let mandateJSON = scenario.mandate(binding: binding, user: user, acceptedAt: at)
            script.mandate(mandateJSON, createdAt: at)
            let mandate = try! Mandate(json: mandateJSON)
            let opened = tick()
            let open = FixtureRecords.verdict(
                .openCase, caseId: "case-\(devices)", mandate: mandate, authority: scenario.authority, classId: "csam",
                decidedAt: opened)
            script.attachManifest(scenario.authority.manifestBytes, mandateRef: mandate.ref.hex)
            script.verdict(open, receivedAt: opened)
            let openRef = try! Verdict(json: open).ref.hex
            script.write(
                recordedAt: tick(), deviceBinding: binding, authorizedBy: openRef, caseOpen: true, banned: false)
            if devices % 3 == 0 {
                let decided = tick()
                let ban = FixtureRecords.verdict(
                    .ban, caseId: "case-\(devices)", mandate: mandate, authority: scenario.authority, classId: "csam",
                    decidedAt: decided)
                script.verdict(ban, receivedAt: decided)
                script.write(
                    recordedAt: tick(), deviceBinding: binding, authorizedBy: try! Verdict(json: ban).ref.hex,
                    caseOpen: false, banned: true)
            }
        }
    }

    /// The interface root seed as the backend's configuration holds it, in a file.
    func seedFile() -> String {
        scenario.file(Array(Hex.encode(scenario.interface.rootSeed).utf8), name: "interface.seed")
    }
}

/// The example ledger's history as the backend that made it would have stored it: its inputs (mandates,
/// manifests, verdict submissions, write requests, redemptions) at the batch times `ledger-example/replay.sh`
/// gives them.
enum ExampleBackendStore {
    /// The example's interface root seed (Sources/ExampleGenerator: `FixtureSeed.repeated(0xd1)`).
    static let interfaceSeed = FixtureSeed.repeated(0xD1)

    /// The `replay.sh` lines that append a batch, each with its time.
    static func batches(example: URL) -> [(at: String, line: Substring)] {
        let replay = try! String(contentsOf: example.appendingPathComponent("replay.sh"), encoding: .utf8)
        return replay.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard line.hasPrefix("onym append "), let at = words.firstIndex(of: "--at") else { return nil }
            return (String(words[at + 1]), line)
        }
    }

    /// The time of the first batch that redeems a grant: from there on the store holds a `recoveries` row,
    /// which `follow` does not import (docs/DECISIONS.md "follow: recoveries are not imported").
    static func firstRedemption(example: URL) -> String? {
        batches(example: example).first { $0.line.contains("-redemption-") }?.at
    }

    /// The script of the store — the whole history, or its batches dated before `cut` — and the replay's `init`
    /// arguments (after `init LEDGER`).
    static func script(example: URL, before cut: String? = nil) -> (
        script: BackendStoreScript, initArguments: [String]
    ) {
        let replay = try! String(contentsOf: example.appendingPathComponent("replay.sh"), encoding: .utf8)
        var script = BackendStoreScript()
        var initArguments: [String] = []
        var manifests: [ContentAddress: [UInt8]] = [:]
        var mandateManifest: [String: ContentAddress] = [:]
        var attached: Set<String> = []
        for line in replay.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if line.hasPrefix("onym init ") {
                initArguments = Array(words.dropFirst(3)).filter { $0 != "--signing-key" && !$0.contains("$KEYS") }
                    .map { $0.hasPrefix("inputs/") ? example.appendingPathComponent($0).path : $0 }
                continue
            }
            guard line.hasPrefix("onym append "), let atIndex = words.firstIndex(of: "--at") else { continue }
            let at = words[atIndex + 1]
            if let cut, Instant.parse(at)! >= Instant.parse(cut)! { break }
            let files = words[(atIndex + 2)...].map { example.appendingPathComponent($0) }
            for file in files {
                let bytes = [UInt8](try! Data(contentsOf: file))
                let name = file.lastPathComponent
                if name.contains("-manifest-") {
                    manifests[SHA256.hash(bytes)] = bytes
                } else if name.contains("-mandate-") {
                    let json = try! CanonicalJSON.parse(bytes)
                    let mandate = try! Mandate(json: json)
                    mandateManifest[mandate.ref.hex] = mandate.manifestHash
                    script.mandate(json, createdAt: at)
                } else if name.contains("-verdict-") {
                    let submission = try! CanonicalJSON.parse(bytes)
                    let verdict = submission["verdict"]!.objectValue!
                    let ref = try! Verdict(json: verdict).mandateRef.hex
                    if attached.insert(ref).inserted, let hash = mandateManifest[ref], let manifest = manifests[hash] {
                        script.attachManifest(manifest, mandateRef: ref)
                    }
                    script.verdict(verdict, receivedAt: at)
                } else if name.contains("-redemption-") {
                    // A recovery is a `recoveries` row (the grant itself is not kept, only its grant_ref); an
                    // unban's redemption is not in the store's schema as read (onym-wire §5 infers one), its write
                    // row is.
                    let redemption = try! Redemption(json: try! CanonicalJSON.parse(bytes))
                    if let to = redemption.toBinding {
                        script.recovery(
                            grantRef: redemption.grantRef.hex, caseId: redemption.caseId.text,
                            from: redemption.fromBinding.text, to: to.text, at: at)
                    }
                } else if name.hasSuffix(".ndjson") {
                    for request in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                        let write = try! WriteRequest(json: try! CanonicalJSON.parse(Array(request.utf8)))
                        script.write(
                            recordedAt: write.recordedAt, deviceBinding: write.deviceBinding.text,
                            authorizedBy: write.authorizedBy.text, caseOpen: write.caseOpen, banned: write.banned,
                            outcome: write.outcome)
                    }
                }
                // Profiles, compromise reports, revocations and grants are not backend store rows (onym-wire §5).
            }
        }
        return (script, initArguments)
    }
}
