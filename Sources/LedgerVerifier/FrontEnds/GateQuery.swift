public import LedgerFormat

/// A gate check at time T over an audited ledger, as `onym-ledger gate` asks it: the backend's answer
/// (reference §4.3) for a binding or for the identity presenting the session, or the client's derivation
/// (profile §5.2) from its last success, online or offline. The library front end behind the verb: it
/// resolves the identity to a binding, runs the evaluator, and says why.
public struct GateQuery: Sendable {
    public enum Subject: Sendable {
        case binding(String)
        /// The identity presenting the session: its newest mandate's binding at T (where the recoveries
        /// redeemed by T moved it).
        case user(String)
    }

    public var subject: Subject
    public var at: Instant
    /// What Apple reports for the device (nil: the ledger's last successful write).
    public var appleBits: DeviceBits?
    /// Simulate the client instead of the backend.
    public var client = false
    public var lastSuccess: Instant?
    public var offline = false

    public init(subject: Subject, at: Instant) {
        self.subject = subject
        self.at = at
    }

    /// The latest time the query evaluates at (a dry run about the past must still accept later commits).
    public var evaluationTime: Instant { max(at, lastSuccess ?? at) }

    /// The gate's answer, with why.
    public struct Report: Sendable {
        public let result: GateResult
        /// The backend's answer behind it (nil when no backend answer was obtained: no mandate, offline).
        public let answer: GateEvaluator.Answer?
        public let binding: WireString?
        public let explanation: String
        /// The identities whose mandates name the binding (more than one is shown, never silent).
        public let identities: [(user: WireString, acceptedAt: Instant)]
        /// How many conduct findings the verified ledger has (`conductFindingCount`: a count, where
        /// `append --json`'s `conductFindings` lists the findings themselves).
        public let conductFindingCount: Int

        /// The `--json` shape.
        public var json: JSONObject {
            var object = JSONObject([
                ("result", .object(result.json)), ("explanation", .string(explanation)),
                ("conductFindingCount", .integer(Int64(conductFindingCount))),
            ])
            if let binding {
                object.set("binding", .string(binding.text))
                object.set(
                    "identities",
                    .array(
                        identities.map {
                            .object(
                                JSONObject([
                                    ("user", .string($0.user.text)), ("acceptedAt", .string($0.acceptedAt.rfc3339)),
                                ])
                            )
                        }))
            }
            if let answer {
                object.set("intended", .string(answer.intended.bits.description))
                object.set("authorizedBy", .string(answer.intended.authorizedBy))
                object.set("write", answer.write.map { .string($0.description) } ?? .null)
                object.set("warnings", .array(answer.warnings.map { .string($0) }))
                if let route = answer.route { object.set("route", .string(route)) }
                if let url = answer.newHolderUrl { object.set("newHolderUrl", .string(url)) }
            }
            return object
        }

        /// The human output: the wire answer, why, and what the backend would do.
        public var lines: [String] {
            var lines = [String(decoding: CanonicalJSON.encode(result.json), as: UTF8.self), explanation]
            if let binding, identities.count > 1 {
                lines.append(
                    "Mandates of \(identities.count) identities name \(binding): "
                        + identities.map { "\($0.user) (accepted \($0.acceptedAt))" }.joined(separator: ", ") + ".")
            }
            if let answer {
                if let write = answer.write {
                    lines.append(
                        "The backend would write bits \(write) now, authorized by \(answer.intended.authorizedBy).")
                }
                if let route = answer.route {
                    lines.append("Route: \(route)\(answer.newHolderUrl.map { " — \($0)" } ?? "").")
                }
                for warning in answer.warnings { lines.append("warning: \(warning)") }
            }
            return lines
        }
    }

    /// The recoveries redeemed by `time` that moved a case (and its grantee's mandate) into `binding`, where
    /// it still is at `time`, as sentences: an answer on a reinstalled app's binding says where its verdicts
    /// came from (F12).
    static func recoveries(into binding: WireString, _ redemptions: [GrantRedemption.Effect], at time: Instant)
        -> String
    {
        redemptions.filter {
            $0.grantType == .recovery && $0.toBinding == binding && $0.applies(at: time)
                && GrantRedemption.binding(ofCase: $0.caseKey, from: $0.fromBinding, at: time, redemptions) == binding
        }.map {
            " Recovery grant \($0.grantRef.hex.prefix(16))… of \($0.authority) (case \($0.caseId)), redeemed "
                + "\($0.redeemedAt), moved the case here from \($0.fromBinding)."
        }.joined()
    }

    /// Answers the query over `ledger`.
    /// - Throws: ``AuditedLedger/UnknownBinding`` for a binding nothing in the ledger names.
    public func answer(over ledger: AuditedLedger) throws(AuditedLedger.UnknownBinding) -> Report {
        let history = ledger.history
        func report(_ result: GateResult, _ answer: GateEvaluator.Answer?, _ binding: WireString?, _ why: String)
            -> Report
        {
            Report(
                result: result, answer: answer, binding: binding,
                explanation: why + (binding.map { Self.recoveries(into: $0, history.redemptions, at: at) } ?? ""),
                identities: binding.map { history.identities(onBinding: $0, at: at) } ?? [],
                conductFindingCount: ledger.conductFindings.count)
        }
        let binding: WireString
        var user: WireString?
        switch subject {
        case .binding(let named):
            binding = try ledger.knownBinding(named)
        case .user(let key):
            user = WireString(key)
            let mandates = history.mandates(ofUser: WireString(key)).filter { $0.acceptedAt <= at }
            guard let newest = mandates.max(by: { $0.acceptedAt < $1.acceptedAt }) else {
                // Profile §5.2: no active mandate is not an operational answer; it routes to the consent gate.
                return report(
                    .checkRequired(.enrollmentLost), nil, nil,
                    "\(key) holds no mandate in this ledger at \(at): the app routes to the consent gate.")
            }
            // F12: a redeemed recovery moved the mandate with its case (docs/FORMAT.md "Grants and redemptions").
            binding = GrantRedemption.binding(of: newest, at: at, history.redemptions)
        }
        func backend(at time: Instant) -> GateEvaluator.Answer {
            GateEvaluator.answer(
                history.gateInput(binding: binding, user: user, appleBits: appleBits, at: time), lookup: history.lookup)
        }
        guard client else {
            let answer = backend(at: at)
            return report(answer.result, answer, binding, answer.explanation)
        }
        var state = ClientGate()
        if let lastSuccess { state.receive(backend(at: lastSuccess).result, generation: 1, at: lastSuccess) }
        if !offline {
            let answer = backend(at: at)
            state.receive(answer.result, generation: 2, at: at)
            return report(
                answer.result, answer, binding, answer.explanation + " Next check due \(state.nextCheckDue!).")
        }
        let result = state.offlineAnswer(at: at)
        let why: String
        switch result {
        case .checkRequired(.neverChecked):
            why = "The backend is unreachable and the app has never completed a check."
        case .checkRequired(.clockRollback): why = "The device clock reads earlier than the last successful check."
        case .checkRequired(.offlineGraceExpired):
            why = "The backend has been unreachable for more than the P3D offline grace since \(lastSuccess!)."
        default:
            why = "The backend is unreachable; within the P3D grace the app serves the answer of \(lastSuccess!)."
        }
        return report(result, nil, binding, why)
    }
}
