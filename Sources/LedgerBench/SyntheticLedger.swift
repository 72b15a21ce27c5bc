import Foundation
import LedgerFormat
import LedgerStore
import LedgerTestSupport
import LedgerWriter

/// Builds a realistic synthetic ledger through the library's writer: mandates with both signatures,
/// verdict submissions, receipts, and write-log entries in the evaluator's rhythm — every write is
/// what the rules intend, so the ledger verifies and the replay has real work to do.
///
/// Per episode on one device: an open case (write 01, after one failed attempt), a 1-day ban
/// (write 10, after one failed attempt), its expiry (write 00, after one failed attempt): 2 verdicts
/// and 6–8 entries. Mandates are 1 per 10 entries, verdicts ~1 per 4, the mix BENCHMARKS.md measures.
struct SyntheticLedger {
    let path: String
    let entries: Int
    let batchEntries: Int
    let signer = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x01))!
    let interface = FixtureInterface()
    let authority = FixtureAuthority(classes: [
        FixtureClass("csam", responseWindow: "P1D", decisionDeadline: "P7D", appealWindow: "P1D", banTerm: "P1D")
    ])

    struct Stats {
        var records = 0
        var commits = 0
        var seconds = 0.0
        /// Time spent inside the writer's append (validation, objects, pack, signature, ref).
        var appendSeconds = 0.0
    }

    /// Inputs for the latency and incremental benchmarks, written beside the ledger: idle devices
    /// (mandated, never judged) whose reconciliation writes (`00`) the rules explain. Everything is
    /// dated at the tail's batch time (`PATH.tail/at`), so each batch lies in its commit's time window.
    /// `PATH.tail/mandates/` (one batch of 1 000 mandates), `single.ndjson` (1 write), `batch1k.ndjson` (1 000 writes).
    private func writeTails(after time: Instant) throws {
        let directory = path + ".tail"
        try FileManager.default.createDirectory(atPath: directory + "/mandates", withIntermediateDirectories: true)
        var singles: [String] = []
        for index in 0..<1000 {
            let user = Ed25519.PrivateKey(seed: FixtureSeed.labelled("bench idle \(index)"))!
            let binding = "enrollment:idle-\(index)"
            let json = FixtureRecords.mandate(
                user: user, interface: interface, authority: authority, classes: ["csam"],
                deviceBinding: binding, acceptedAt: time.rfc3339)
            try Data(CanonicalJSON.encode(json)).write(to: URL(fileURLWithPath: "\(directory)/mandates/\(index).json"))
            singles.append(
                String(
                    decoding: CanonicalJSON.encode(
                        JSONObject([
                            ("recordedAt", .string(time.adding(seconds: 120).rfc3339)),
                            ("deviceBinding", .string(binding)),
                            ("authorizedBy", .string("reconciliation")), ("caseOpen", .bool(false)),
                            ("banned", .bool(false)),
                            ("outcome", .string("ok")),
                        ])), as: UTF8.self))
        }
        try (singles[0] + "\n").write(toFile: directory + "/single.ndjson", atomically: true, encoding: .utf8)
        try (singles.dropFirst().joined(separator: "\n") + "\n").write(
            toFile: directory + "/batch1k.ndjson", atomically: true, encoding: .utf8)
        try time.adding(seconds: 120).rfc3339.write(toFile: directory + "/at", atomically: true, encoding: .utf8)
    }

    /// Events waiting for their time: (time in hours, device index, step).
    private struct Pending { let hour: Int; let device: Int; let step: Int }

    func build() throws -> Stats {
        let start = Date()
        // Batches are an hour apart, ~480 write entries each: ten million entries span ~2.4 years, and a batch
        // dated after the verification time is refused (HistoryPolicy). 2020 leaves every size in the past
        // (and before the fixture manifest's validUntil, 2027-08-31).
        let epoch = Instant.parse("2020-01-01T00:00:00Z")!
        let descriptor = LedgerDescriptor(
            ledgerId: "bench", interface: WireString(interface.componentId),
            appleAccount: .init(teamId: "BENCHTEAM1", apps: ["app.bench"]),
            interfaceRootKey: interface.countersigningKey(for: authority.componentId).publicKey)
        _ = try Ledger.initialize(path: path, descriptor: descriptor, signingKey: signer, at: epoch)
        // One appender for every batch, as a long-running writer keeps one: the state is saved once, at close.
        let appender = try Appender.open(path)
        var stats = Stats(records: 2, commits: 1)
        let manifest = authority.manifest()
        let devices = max(1, entries / 10)
        var mandates: [Mandate] = []
        var facts: [[VerdictFact]] = Array(repeating: [], count: devices)
        var pending: [Int: [Pending]] = [:]  // hour → events
        var nextDevice = 0
        var written = 0
        var hour = 0
        var episode = 0
        var manifestStored = false
        var busy: Set<Int> = []
        var lastHour = 0
        var caseStart: [Int: Int] = [:]
        while written < entries {
            hour += 1
            let time = epoch.adding(seconds: Int64(hour) * 3600)
            var items: [BatchItem] = []
            var requests: [WriteRequest] = []
            if !manifestStored {
                items.append(BatchItem(source: "manifest", content: .manifest(manifest, detachedSignature: nil)))
                manifestStored = true
            }
            // Start new episodes until this batch is full enough.
            var due = pending.removeValue(forKey: hour) ?? []
            while due.count * 3 < batchEntries && nextDevice < devices {
                let user = Ed25519.PrivateKey(seed: FixtureSeed.labelled("bench user \(nextDevice)"))!
                let json = FixtureRecords.mandate(
                    user: user, interface: interface, authority: authority, classes: ["csam"],
                    deviceBinding: "enrollment:bench-\(nextDevice)", acceptedAt: time.rfc3339)
                let mandate = try Mandate(json: json)
                mandates.append(mandate)
                items.append(BatchItem(source: "mandate", content: .record(mandate)))
                due.append(Pending(hour: hour, device: nextDevice, step: 0))
                nextDevice += 1
            }
            if nextDevice >= devices {
                // Every device is enrolled: idle devices start their next episode, round-robin.
                var scanned = 0
                while due.count * 3 < batchEntries && scanned < devices {
                    episode = (episode + 1) % devices
                    scanned += 1
                    if !busy.contains(episode) { due.append(Pending(hour: hour, device: episode, step: 0)) }
                }
            }
            var touched: [Int] = []
            for event in due {
                let device = event.device
                let mandate = mandates[device]
                if event.step < 2 {
                    let disposition: FixtureRecords.Disposition = event.step == 0 ? .openCase : .ban
                    if event.step == 0 { busy.insert(device); caseStart[device] = hour }
                    let json = FixtureRecords.verdict(
                        disposition, caseId: "case-\(device)-\(caseStart[device]!)", mandate: mandate,
                        authority: authority, classId: "csam", decidedAt: time.rfc3339)
                    let verdict = try Verdict(json: json)
                    facts[device].append(VerdictFact(verdict: verdict, receivedAt: time, manifest: manifest))
                    items.append(
                        BatchItem(
                            source: "verdict",
                            content: .submission(
                                try VerdictSubmission(json: FixtureRecords.submission(json, authority: authority)))))
                    pending[hour + (event.step == 0 ? 1 : 25), default: []].append(
                        Pending(hour: 0, device: device, step: event.step + 1))
                } else {
                    busy.remove(device)  // the ban has expired: the write below clears it
                }
                if !touched.contains(device) { touched.append(device) }
            }
            // One write per touched device, after every delivery of the batch (a write at T sees all verdicts received by T).
            for device in touched {
                let intended = DeviceFold.evaluate(facts[device], at: time)
                for outcome in ["failed: mark_write_failed: 503", "ok"] {
                    requests.append(
                        try WriteRequest(
                            json: JSONObject([
                                ("recordedAt", .string(time.rfc3339)),
                                ("deviceBinding", .string(mandates[device].deviceBinding.text)),
                                ("authorizedBy", .string(intended.authorizedBy)),
                                ("caseOpen", .bool(intended.bits.caseOpen)),
                                ("banned", .bool(intended.bits.banned)), ("outcome", .string(outcome)),
                            ])))
                }
            }
            if written + requests.count > entries { requests = Array(requests.prefix(entries - written)) }
            written += requests.count
            items.append(BatchItem(source: "writes", content: .writeRequests(requests)))
            let appendStart = Date()
            let result = try appender.append(items: items, signingKey: signer, at: time)
            stats.appendSeconds += Date().timeIntervalSince(appendStart)
            stats.records += result.counts.total
            if result.commit != nil { stats.commits += 1 }
            lastHour = hour
        }
        // The last pack merge, written beside the last batches, is part of appending them.
        let mergeStart = Date()
        appender.waitForPackMerges()
        stats.appendSeconds += Date().timeIntervalSince(mergeStart)
        stats.seconds = Date().timeIntervalSince(start)
        appender.close()  // after the timing: a process appending batches saved at its exit before
        try writeTails(after: epoch.adding(seconds: Int64(lastHour + 1) * 3600))
        return stats
    }
}
