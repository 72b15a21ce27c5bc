public import LedgerFormat

/// A reconciliation dry run at time T over an audited ledger, as `onym-ledger reconcile` asks it: per
/// device binding, the bits of its last successful write, the bits the rules intend, and the write the
/// backend would make — marking overdue clears, bindings several identities' mandates name, and the
/// unauthorized entries a corrective write corrects. Nothing is written.
public struct ReconcileQuery: Sendable {
    public var at: Instant
    /// Only this binding (refused when nothing in the ledger names it).
    public var binding: String?

    public init(at: Instant, binding: String? = nil) {
        self.at = at
        self.binding = binding
    }

    public struct Row: Sendable {
        public let row: Reconciler.Row
        /// How many identities' mandates name the binding.
        public let identities: [WireString]
        /// The unauthorized write-log entries this binding's corrective write corrects.
        public let corrects: [Int64]

        var json: JSONObject {
            var object = JSONObject([
                ("binding", .string(row.binding.text)), ("intended", .string(row.intended.bits.description)),
                ("authorizedBy", .string(row.intended.authorizedBy)), ("overdueClear", .bool(row.isOverdueClear)),
            ])
            object.set("lastWritten", row.lastWritten.map { .string($0.description) } ?? .null)
            object.set("write", row.write.map { .string($0.description) } ?? .null)
            if identities.count > 1 { object.set("identities", .array(identities.map { .string($0.text) })) }
            object.set("correctsUnauthorizedWrites", .array(corrects.map { .integer($0) }))
            return object
        }

        /// The human table's line, `width` wide for the binding column.
        func line(width: Int) -> String {
            let last = row.lastWritten?.description ?? "--"
            let write = row.write?.description ?? "none"
            var mark = row.isOverdueClear ? "  (overdue clear)" : ""
            if identities.count > 1 { mark += "  (mandates of \(identities.count) identities)" }
            if !corrects.isEmpty, row.write != nil {
                mark += "  (corrects unauthorized write \(corrects.map { "#\($0)" }.joined(separator: ", ")))"
            }
            return row.binding.text.padded(to: width) + last.padded(to: 6)
                + row.intended.bits.description.padded(to: 10) + write.padded(to: 7) + row.intended.authorizedBy + mark
        }
    }

    public struct Report: Sendable {
        public let at: Instant
        public let rows: [Row]
        /// How many conduct findings the verified ledger has (a count, `conductFindingCount` in JSON).
        public let conductFindingCount: Int

        public var pending: [Row] { rows.filter { $0.row.write != nil } }
        public var overdue: [Row] { rows.filter { $0.row.isOverdueClear } }

        /// The `--json` shape.
        public var json: JSONObject {
            JSONObject([
                ("at", .string(at.rfc3339)), ("bindings", .integer(Int64(rows.count))),
                ("pendingWrites", .integer(Int64(pending.count))), ("overdueClears", .integer(Int64(overdue.count))),
                ("conductFindingCount", .integer(Int64(conductFindingCount))),
                ("rows", .array(rows.map { .object($0.json) })),
            ])
        }

        /// The human table: a summary line, a header, and the rows with a pending write (or all of them).
        public func lines(all: Bool) -> [String] {
            let width = (rows.map(\.row.binding.text.count).max() ?? 7) + 2
            var lines = [
                "reconcile at \(at): \(rows.count) bindings, \(pending.count) pending writes, \(overdue.count) overdue clears",
                "binding".padded(to: width) + "last  intended  write  authorizedBy",
            ]
            for row in rows where all || row.row.write != nil { lines.append(row.line(width: width)) }
            return lines
        }
    }

    public func reconcile(_ ledger: AuditedLedger) throws(AuditedLedger.UnknownBinding) -> Report {
        let history = ledger.history
        if let binding { _ = try ledger.knownBinding(binding) }
        let written = history.lastWritten(at: at)
        let unauthorized = ledger.unauthorizedWrites
        let bindings = binding.map { [WireString($0)] } ?? history.knownBindings
        let rows = bindings.map { binding in
            Row(
                row: Reconciler.row(
                    binding: binding, facts: history.foldFacts(of: binding), lastWritten: written[binding],
                    revocations: history.revocations, redemptions: history.redemptions, at: at),
                identities: history.identities(onBinding: binding, at: at).map(\.user),
                corrects: unauthorized[binding] ?? [])
        }
        return Report(at: at, rows: rows, conductFindingCount: ledger.conductFindings.count)
    }
}
