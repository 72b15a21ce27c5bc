import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore

/// Seed §10 conformance scenarios over the pure evaluator: each builds really-signed verdicts and
/// asserts the fold (bits and authorizedBy), the gate or the replay at several times.
@Suite("Evaluator: fold, gate, reconcile, replay")
struct EvaluatorTests {
    static let authority = FixtureAuthority(
        classes: FixtureClass.referenceClasses + [FixtureClass("permanent-harm", banTerm: "permanent")],
        appellate: "self")
    static let appealed = FixtureAuthority(
        componentId: "onym:component:authority-b", seed: FixtureSeed.repeated(0x08),
        appellate: "onym:component:appeals-court")
    static let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!
    static let binding: WireString = "enrollment:device-1"

    static func mandate(_ authority: FixtureAuthority = authority) -> Mandate {
        try! Mandate(
            json: FixtureRecords.mandate(
                user: user, interface: FixtureInterface(), authority: authority,
                classes: ["csam", "unsolicited-pornography", "permanent-harm"], deviceBinding: binding.text,
                acceptedAt: "2026-08-01T00:00:00Z"))
    }

    static func t(_ text: String) -> Instant { Instant.parse(text)! }

    /// A fact for a verdict of `disposition` in `caseId`, decided and received at the given times.
    static func fact(
        _ disposition: FixtureRecords.Disposition, _ caseId: String, decided: String, received: String? = nil,
        classId: String = "csam", authority: FixtureAuthority = authority, edit: (inout JSONObject) -> Void = { _ in }
    ) -> VerdictFact {
        let verdict = try! Verdict(
            json: FixtureRecords.verdict(
                disposition, caseId: caseId, mandate: mandate(authority), authority: authority, classId: classId,
                decidedAt: decided, edit: edit))
        return VerdictFact(verdict: verdict, receivedAt: t(received ?? decided), manifest: authority.manifest())
    }

    func fold(_ facts: [VerdictFact], at time: String, revocations: [DesignationRevocation.Effect] = [])
        -> DeviceFold.Result
    {
        DeviceFold.evaluate(facts, revocations: revocations, at: Self.t(time))
    }

    @Test func nothingReceivedMeansReconciliationAndClearBits() {
        let open = Self.fact(.openCase, "a", decided: "2026-08-10T00:00:00Z", received: "2026-08-10T01:00:00Z")
        let before = fold([open], at: "2026-08-10T00:30:00Z")
        #expect(before.bits == .clear)
        #expect(before.authorizedBy == "reconciliation")
        let after = fold([open], at: "2026-08-10T01:00:00Z")
        #expect(after.bits == DeviceBits(caseOpen: true, banned: false))
        #expect(after.authorizedBy == open.ref.hex)
    }

    @Test func everyDispositionExecutes() {
        let open = Self.fact(.openCase, "a", decided: "2026-08-10T00:00:00Z")
        let dismiss = Self.fact(.dismiss, "a", decided: "2026-08-11T00:00:00Z")
        #expect(fold([open, dismiss], at: "2026-08-12T00:00:00Z").bits == .clear)
        #expect(fold([open, dismiss], at: "2026-08-12T00:00:00Z").authorizedBy == dismiss.ref.hex)

        // Non-suspensive duration ban: in force from decidedAt, expires after P365D, then `expiry`.
        let ban = Self.fact(.ban, "b", decided: "2026-08-10T00:00:00Z")
        #expect(fold([ban], at: "2026-08-10T00:00:00Z").bits == DeviceBits(caseOpen: false, banned: true))
        #expect(fold([ban], at: "2027-08-09T23:59:59Z").authorizedBy == ban.ref.hex)
        let expired = fold([ban], at: "2027-08-10T00:00:00Z")
        #expect(expired.bits == .clear)
        #expect(expired.authorizedBy == "expiry")

        // Suspensive ban: stored until executeAfter (= appealDeadline, 30 days later).
        let suspensive = Self.fact(.ban, "c", decided: "2026-08-10T00:00:00Z", classId: "unsolicited-pornography")
        #expect(fold([suspensive], at: "2026-09-08T23:59:59Z").bits == .clear)
        #expect(fold([suspensive], at: "2026-09-09T00:00:00Z").bits.banned)

        // Permanent ban: never expires.
        let permanent = Self.fact(.ban, "d", decided: "2026-08-10T00:00:00Z", classId: "permanent-harm")
        #expect(fold([permanent], at: "2099-01-01T00:00:00Z").bits.banned)
    }

    @Test func reversalLiftsABanAndALateArrivingBanDoesNotUndoIt() {
        let ban = Self.fact(.ban, "b", decided: "2026-08-10T00:00:00Z", received: "2026-08-15T00:00:00Z")
        let reversal = Self.fact(.dismiss, "b", decided: "2026-08-12T00:00:00Z", received: "2026-08-13T00:00:00Z")
        #expect(fold([ban, reversal], at: "2026-08-14T00:00:00Z").bits == .clear)
        // The ban arrives after the reversal that lifted it: signed order, not arrival, decides.
        let late = fold([ban, reversal], at: "2026-08-16T00:00:00Z")
        #expect(late.bits == .clear)
        #expect(late.authorizedBy == reversal.ref.hex)
    }

    @Test func sameSecondOrderingAndOffsetNormalization() {
        let ban = Self.fact(.ban, "b", decided: "2026-08-10T00:00:00Z")
        let dismiss = Self.fact(.dismiss, "b", decided: "2026-08-10T00:00:00Z")
        #expect(fold([dismiss, ban], at: "2026-08-11T00:00:00Z").bits == .clear)  // ban < dismiss at the same instant
        // 10:00+02:00 is 08:00Z, before the 08:30Z dismissal.
        let offsetBan = Self.fact(.ban, "c", decided: "2026-08-10T10:00:00+02:00")
        let laterDismiss = Self.fact(.dismiss, "c", decided: "2026-08-10T08:30:00Z")
        #expect(fold([laterDismiss, offsetBan], at: "2026-08-11T00:00:00Z").bits == .clear)
        let earlierDismiss = Self.fact(.dismiss, "c", decided: "2026-08-10T07:30:00Z")
        #expect(fold([earlierDismiss, offsetBan], at: "2026-08-11T00:00:00Z").bits.banned)
    }

    @Test func marksAggregateOverCasesAndDuplicatesCountOnce() {
        let open = Self.fact(.openCase, "a", decided: "2026-08-10T00:00:00Z")
        let ban = Self.fact(.ban, "b", decided: "2026-08-10T01:00:00Z")
        let both = fold([open, ban, ban], at: "2026-08-10T02:00:00Z")
        #expect(both.bits == DeviceBits(caseOpen: true, banned: true))
        #expect(both.authorizedBy == ban.ref.hex)
        let dismissB = Self.fact(.dismiss, "b", decided: "2026-08-11T00:00:00Z")
        let one = fold([open, ban, dismissB], at: "2026-08-12T00:00:00Z")
        #expect(one.bits == DeviceBits(caseOpen: true, banned: false))
        #expect(one.authorizedBy == open.ref.hex)  // the newest open case governs
    }

    @Test func decisionDeadlineDefaultClearsTheCaseAndRefusesALateBan() {
        let open = Self.fact(.openCase, "a", decided: "2026-08-10T00:00:00Z")  // csam: decide within P7D
        #expect(fold([open], at: "2026-08-16T23:59:59Z").bits.caseOpen)
        let defaulted = fold([open], at: "2026-08-17T00:00:00Z")
        #expect(defaulted.bits == .clear)
        #expect(defaulted.authorizedBy == "decision-deadline-default")
        let lateBan = Self.fact(.ban, "a", decided: "2026-08-18T00:00:00Z")
        #expect(fold([open, lateBan], at: "2026-08-19T00:00:00Z").bits == .clear)
        let timelyBan = Self.fact(.ban, "a", decided: "2026-08-16T00:00:00Z")
        #expect(fold([open, timelyBan], at: "2026-08-19T00:00:00Z").bits.banned)
        // A signed decisionDeadline on the verdict takes precedence over the class term.
        let signed = Self.fact(
            .openCase, "s", decided: "2026-08-10T00:00:00Z",
            edit: { $0.set("decisionDeadline", .string("2026-08-11T00:00:00Z")) })
        #expect(fold([signed], at: "2026-08-11T00:00:00Z").bits == .clear)
    }

    @Test func designationRevocationClearsCasesAndBansWithoutASurvivingForum() {
        let open = Self.fact(.openCase, "a", decided: "2026-08-10T00:00:00Z")
        let ban = Self.fact(.ban, "b", decided: "2026-08-10T00:00:00Z")
        let survivor = Self.fact(.ban, "c", decided: "2026-08-10T00:00:00Z", authority: Self.appealed)
        let revocations = [
            DesignationRevocation.Effect(
                authority: WireString(Self.authority.componentId), effectiveAt: Self.t("2026-08-12T00:00:00Z"),
                determinedAt: Self.t("2026-08-12T00:00:00Z")),
            DesignationRevocation.Effect(
                authority: WireString(Self.appealed.componentId), effectiveAt: Self.t("2026-08-12T00:00:00Z"),
                determinedAt: Self.t("2026-08-12T00:00:00Z")),
        ]
        #expect(
            fold([open, ban], at: "2026-08-11T00:00:00Z", revocations: revocations).bits
                == DeviceBits(caseOpen: true, banned: true))
        let after = fold([open, ban], at: "2026-08-12T00:00:00Z", revocations: revocations)
        #expect(after.bits == .clear)
        #expect(after.authorizedBy == "designation-revocation")
        // A ban whose manifest names an external appellate forum survives the revocation.
        #expect(fold([survivor], at: "2026-08-13T00:00:00Z", revocations: revocations).bits.banned)
        // Verdicts the revoked authority decides after the effective time are not executed.
        let afterRevocation = Self.fact(.ban, "d", decided: "2026-08-13T00:00:00Z")
        #expect(!fold([afterRevocation], at: "2026-08-14T00:00:00Z", revocations: revocations).bits.banned)
    }

    // MARK: - Gate

    func gate(_ facts: [VerdictFact], apple: DeviceBits, at time: String, user: String? = nil, mandates: [Mandate] = [])
        -> GateEvaluator.Answer
    {
        var input = GateEvaluator.Input(binding: Self.binding, facts: facts, appleBits: apple, at: Self.t(time))
        input.user = user.map { WireString($0) }
        input.userMandates = mandates
        let verdicts = Dictionary(
            uniqueKeysWithValues: facts.map { fact -> (ContentAddress, Verdict) in
                (
                    fact.ref,
                    try! Verdict(
                        json: FixtureRecords.verdict(
                            fact.disposition == .ban ? .ban : (fact.disposition == .dismiss ? .dismiss : .openCase),
                            caseId: fact.caseId.text,
                            mandate: Self.mandate(), authority: Self.authority, classId: "csam",
                            decidedAt: fact.decidedAt.rfc3339,
                            extra: [("appealUrl", .string("https://a.example/appeal"))]))
                )
            })
        let lookup = GateEvaluator.Lookup(
            verdict: { ref in verdicts[ref] ?? verdicts.values.first { $0.ref == ref } },
            mandate: { _ in Self.mandate() }, manifest: { _ in Self.authority.manifest() })
        return GateEvaluator.answer(input, lookup: lookup)
    }

    @Test func gateAnswersEveryWireCase() throws {
        #expect(gate([], apple: .clear, at: "2026-08-10T00:00:00Z").result == .clear)
        let open = Self.fact(.openCase, "a", decided: "2026-08-10T00:00:00Z")
        let caseOpen = gate([open], apple: .clear, at: "2026-08-10T01:00:00Z")
        guard case .caseOpen(let notices) = caseOpen.result else { Issue.record("expected caseOpen"); return }
        #expect(notices.count == 1)
        #expect(notices[0].decisionDeadline == "2026-08-17T00:00:00Z")
        #expect(caseOpen.write == DeviceBits(caseOpen: true, banned: false))

        let ban = Self.fact(.ban, "b", decided: "2026-08-10T00:00:00Z")
        let banned = gate([ban], apple: DeviceBits(caseOpen: false, banned: true), at: "2026-08-11T00:00:00Z")
        guard case .banned(let state) = banned.result else { Issue.record("expected banned"); return }
        #expect(state.authorityContact.contains(Self.authority.componentId))
        #expect(banned.write == nil)
        #expect(banned.warnings.contains { $0.contains("newHolderUrl") })  // the fixture ban carries no new-holder URL
    }

    /// Bits say banned but no verdict resolves the identity → reidentificationRequired; with a fresh,
    /// unrelated mandate → the new-holder route (profile §8.1).
    @Test func unresolvableBannedDeviceAndTheNewHolderFastPath() {
        let plain = gate([], apple: DeviceBits(caseOpen: false, banned: true), at: "2026-08-11T00:00:00Z")
        #expect(plain.result == .checkRequired(.reidentificationRequired))
        #expect(plain.route == nil)
        let newHolder = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x33))!
        let fresh = try! Mandate(
            json: FixtureRecords.mandate(
                user: newHolder, interface: FixtureInterface(), authority: Self.authority, classes: ["csam"],
                deviceBinding: Self.binding.text, acceptedAt: "2026-08-10T12:00:00Z"))
        let routed = gate(
            [], apple: DeviceBits(caseOpen: false, banned: true), at: "2026-08-11T00:00:00Z",
            user: newHolder.publicKey.onymKey, mandates: [fresh])
        #expect(routed.result == .checkRequired(.reidentificationRequired))
        #expect(routed.route == GateEvaluator.newHolderRule)
        #expect(routed.newHolderUrl == "https://authority.example/new-holder")
    }

    /// A vendor-made authority: a ban of another identity on the same device (a key the
    /// vendor minted, mandated on the real user's binding) does not answer `banned` for the real user.
    @Test func aBanOfAnotherIdentityOnTheDeviceIsNotThisIdentitysBan() {
        let minted = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x77))!
        let mintedMandate = try! Mandate(
            json: FixtureRecords.mandate(
                user: minted, interface: FixtureInterface(), authority: Self.authority, classes: ["csam"],
                deviceBinding: Self.binding.text, acceptedAt: "2026-08-05T00:00:00Z"))
        let ban = try! Verdict(
            json: FixtureRecords.verdict(
                .ban, caseId: "m", mandate: mintedMandate, authority: Self.authority, classId: "csam",
                decidedAt: "2026-08-10T00:00:00Z"))
        let fact = VerdictFact(
            verdict: ban, receivedAt: Self.t("2026-08-10T00:00:00Z"), manifest: Self.authority.manifest())
        var input = GateEvaluator.Input(
            binding: Self.binding, facts: [fact], appleBits: DeviceBits(caseOpen: false, banned: true),
            at: Self.t("2026-08-11T00:00:00Z"))
        input.user = WireString(Self.user.publicKey.onymKey)
        input.userMandates = [Self.mandate()]
        let lookup = GateEvaluator.Lookup(
            verdict: { $0 == ban.ref ? ban : nil }, mandate: { _ in mintedMandate },
            manifest: { _ in Self.authority.manifest() })
        let answer = GateEvaluator.answer(input, lookup: lookup)
        #expect(answer.result == .checkRequired(.reidentificationRequired))
        // The accused identity itself is banned.
        input.user = WireString(minted.publicKey.onymKey)
        input.userMandates = [mintedMandate]
        guard case .banned = GateEvaluator.answer(input, lookup: lookup).result else {
            Issue.record("the accused identity should be banned")
            return
        }
    }

    @Test func clientDerivationAndGenerations() {
        var client = ClientGate()
        let noon = Self.t("2026-08-10T12:00:00Z")
        #expect(client.offlineAnswer(at: noon) == .checkRequired(.neverChecked))
        let first = client.receive(.clear, generation: 1, at: noon)
        #expect(first)
        #expect(client.offlineAnswer(at: noon.adding(days: 2)) == .clear)
        #expect(client.offlineAnswer(at: noon.adding(seconds: 3 * 86_400 + 1)) == .checkRequired(.offlineGraceExpired))
        #expect(client.offlineAnswer(at: noon.adding(seconds: -1)) == .checkRequired(.clockRollback))
        #expect(client.nextCheckDue == noon.adding(days: 1))
        // Two concurrent checks: generation 3 (banned) lands first, the slower generation 2 (clear) is stale.
        let state = BanState(
            verdictRef: "x", verdict: nil, authorityContact: "c", banExpires: nil, appealUrl: nil, newHolderUrl: nil)
        let newer = client.receive(.banned(state), generation: 3, at: noon.adding(seconds: 10))
        let stale = client.receive(.clear, generation: 2, at: noon.adding(seconds: 11))
        #expect(newer)
        #expect(!stale)
        #expect(client.offlineAnswer(at: noon.adding(seconds: 20)) == .banned(state))
    }

    // MARK: - Reconcile and replay

    @Test func reconcileFindsOverdueClearsAndQueuedWrites() {
        let ban = Self.fact(.ban, "b", decided: "2026-08-10T00:00:00Z")
        let overdue = Reconciler.row(
            binding: Self.binding, facts: [ban], lastWritten: DeviceBits(caseOpen: false, banned: true),
            at: Self.t("2027-09-01T00:00:00Z"))
        #expect(overdue.write == .clear)
        #expect(overdue.isOverdueClear)
        #expect(overdue.intended.authorizedBy == "expiry")
        // A ban delivered while the device had no session: the write is queued for its next session.
        let queued = Reconciler.row(
            binding: Self.binding, facts: [ban], lastWritten: nil, at: Self.t("2026-08-11T00:00:00Z"))
        #expect(queued.write == DeviceBits(caseOpen: false, banned: true))
        #expect(!queued.isOverdueClear)
        let done = Reconciler.row(
            binding: Self.binding, facts: [ban], lastWritten: DeviceBits(caseOpen: false, banned: true),
            at: Self.t("2026-08-11T00:00:00Z"))
        #expect(done.write == nil)
    }

    @Test func replayRejectsWrongBitsAndWrongAuthorization() throws {
        let ban = Self.fact(.ban, "b", decided: "2026-08-10T00:00:00Z")
        func entry(_ caseOpen: Bool, _ banned: Bool, _ by: String, at: String = "2026-08-10T01:00:00Z") -> WriteLogEntry
        {
            try! WriteLogEntry(
                sequence: 1, recordedAt: at, deviceBinding: Self.binding, authorizedBy: WireString(by),
                caseOpen: caseOpen,
                banned: banned, outcome: "ok", previousHash: "genesis")
        }
        #expect(WriteReplay.unexplained(entry(false, true, ban.ref.hex), facts: [ban]) == nil)
        #expect(
            WriteReplay.unexplained(entry(true, true, ban.ref.hex), facts: [ban])?.contains("requested bits 11") == true
        )
        #expect(
            WriteReplay.unexplained(entry(false, true, "reconciliation"), facts: [ban])?.contains("authorizedBy")
                == true)
        // Written before the verdict was decided and received: unauthorized.
        #expect(
            WriteReplay.unexplained(entry(false, true, ban.ref.hex, at: "2026-08-09T00:00:00Z"), facts: [ban]) != nil)
        #expect(WriteReplay.unexplained(entry(false, false, "expiry", at: "2027-08-11T00:00:00Z"), facts: [ban]) == nil)
    }
}
