public import LedgerFormat
import LedgerStore

/// What `verify` prints: the `--json` shape and the human report, in the library where tests call them.
extension VerificationReport {
    /// The `--json` shape: {verified, authentic, compliant, witnessed, summary, findings, evidence, stateFolder}.
    /// `witnessed` is false only when `--witness` asked for a quorum the tip's checkpoint does not have.
    public var json: JSONObject {
        var object = JSONObject([
            ("verified", .bool(isVerified)), ("authentic", .bool(isAuthentic)), ("compliant", .bool(isCompliant)),
            ("witnessed", .bool(isWitnessed)),
            ("summary", .object(summary.json)), ("findings", .array(failures.map { .object($0.json) })),
            ("evidence", .array(evidence.map { .string($0) })),
        ])
        object.set("stateFolder", stateFolder.map { .string($0) } ?? .null)
        return object
    }

    /// The human report `verify` prints: the verdict line, the summary, the findings (at most
    /// `findingsPerPolicy` per policy, then a count), and the evidence files.
    public func lines(findingsPerPolicy: Int) -> [String] {
        let report = self
        let summary = report.summary
        let integrity = report.failures.filter { $0.kind == .integrity }
        let conduct = report.conductFindings
        let witness = report.witnessFindings
        var lines: [String] = []
        let id = summary.ledgerId ?? ""
        if !report.isAuthentic {
            let also = conduct.isEmpty ? "" : ", \(conduct.count) conduct finding(s)"
            lines.append("REJECTED \(id) — \(integrity.count) integrity finding(s)\(also)")
        } else if !report.isWitnessed {
            let also = conduct.isEmpty ? "" : ", and \(conduct.count) conduct finding(s)"
            lines.append(
                "VERIFIED, NOT WITNESSED \(id) — authentic, but the witness quorum asked for has not cosigned the tip\(also)"
            )
        } else if !report.isCompliant {
            lines.append(
                "VERIFIED WITH FINDINGS \(id) — authentic, but \(conduct.count) conduct finding(s): the vendor broke the rules"
            )
        } else {
            lines.append("VERIFIED \(id)")
        }
        // After --since, some counts cover the checked commits only: say which, line by line.
        let rangeOnly = summary.countsCoverCheckedRangeOnly
        let inRange = rangeOnly ? " — in the checked range only" : ""
        let incremental = summary.resumedFrom.map {
            rangeOnly
                ? " in the history; \(summary.commitsChecked) checked in this run, after --since \($0.short)"
                : " (\(summary.commitsChecked) checked in this run, after \($0.short))"
        }
        lines.append("  commits:      \(summary.commits)\(incremental ?? "")")
        let records = summary.recordsByKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(
            separator: ", ")
        lines.append("  records:      \(records.isEmpty ? "none" : records)\(inRange)")
        lines.append("  write log:    \(summary.writeEntries) entries, head \(summary.logHead)")
        let signaturesNow =
            rangeOnly || summary.resumedFrom == nil ? "" : " (\(summary.signaturesCheckedThisRun) in this run)"
        lines.append("  signatures:   \(summary.signaturesChecked) checked\(signaturesNow)\(inRange)")
        if let first = summary.firstCommitTime, let last = summary.lastCommitTime {
            lines.append(
                "  time span:    \(Instant(seconds: first).rfc3339) … \(Instant(seconds: last).rfc3339)\(inRange)")
        }
        if let tip = summary.tip { lines.append("  tip:          \(tip.hex)") }
        if let interface = summary.interface { lines.append("  interface:    \(interface)") }
        if let account = summary.appleAccount {
            lines.append("  Apple scope:  team \(account.teamId), apps \(account.apps.joined(separator: ", "))")
        } else {
            lines.append("  Apple scope:  undeclared")
        }
        if !summary.signers.isEmpty { lines.append("  signers:      \(summary.signers.joined(separator: ", "))") }
        if let log = summary.transparencyLog {
            lines.append("  log:          \(log.key.name), \(log.size) leaves, root \(Base64.encode(log.root.bytes))")
        }
        for handover in summary.logHandovers {
            lines.append(
                "  handover:     at \(handover.commit.short) (size \(handover.size)) from \(handover.from.name) to "
                    + "\(handover.to.name), key \(handover.to)")
        }
        if !summary.sharedBindings.isEmpty {
            lines.append(
                "  shared:       \(summary.sharedBindings.count) device binding(s) named by mandates of several identities"
            )
            for (binding, identities) in summary.sharedBindings.sorted(by: { $0.key < $1.key }).prefix(
                findingsPerPolicy)
            {
                lines.append(
                    "                \(binding): "
                        + identities.map { "\($0.user) (accepted \($0.acceptedAt))" }.joined(separator: ", "))
            }
        }
        if let folder = report.stateFolder { lines.append("  state:        \(folder)") }
        if !integrity.isEmpty {
            lines.append("integrity findings (the history is not what the key holders published):")
            lines += Self.capped(integrity, perPolicy: findingsPerPolicy)
        }
        if !conduct.isEmpty {
            lines.append("conduct findings (the history is authentic; the vendor broke the rules):")
            lines += Self.capped(conduct, perPolicy: findingsPerPolicy)
        }
        if !witness.isEmpty {
            lines.append("witness findings (the history is authentic; it is not (yet) witnessed as required):")
            lines += Self.capped(witness, perPolicy: findingsPerPolicy)
        }
        if !report.evidence.isEmpty {
            lines.append("evidence (checkable with stock git and ssh-keygen):")
            lines += report.evidence.map { "  \($0)" }
        }
        return lines
    }

    /// One line per finding, at most `perPolicy` per policy, then a count of the rest.
    static func capped(_ findings: [PolicyFailure], perPolicy findingsPerPolicy: Int) -> [String] {
        var shown: [String: Int] = [:]
        var hidden: [(policy: String, count: Int)] = []
        var lines: [String] = []
        for finding in findings {
            let count = shown[finding.policy, default: 0]
            shown[finding.policy] = count + 1
            if count < findingsPerPolicy {
                lines.append(finding.description)
            } else if let index = hidden.firstIndex(where: { $0.policy == finding.policy }) {
                hidden[index].count += 1
            } else {
                hidden.append((finding.policy, 1))
            }
        }
        for (policy, count) in hidden {
            lines.append("… and \(count) more \(policy) finding(s); --json lists all")
        }
        return lines
    }
}
