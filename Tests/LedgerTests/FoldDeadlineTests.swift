import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore

/// The decision-deadline default against cases decided in time (three cases found by a
/// reviewer, each as it was reported, and the decisions docs/DECISIONS.md records for reopening and several open-case
/// verdicts). Every verdict is really signed; times are the reported ones.
@Suite("Fold: deadlines, reversals and re-bans")
struct FoldDeadlineTests {
    /// Classes shaped to the reported dates: a 14-day deadline with a suspensive 10-day appeal window
    /// and a 30-day term; the same, permanent; a 5-day deadline with a 3-day non-suspensive term.
    static let authority = FixtureAuthority(
        classes: [
            FixtureClass(
                "harassment", decisionDeadline: "P14D", appealWindow: "P10D", banTerm: "P30D",
                appealEffect: "suspensive"),
            FixtureClass(
                "harassment-permanent", decisionDeadline: "P14D", appealWindow: "P10D", banTerm: "permanent",
                appealEffect: "suspensive"),
            FixtureClass("spam", decisionDeadline: "P5D", appealWindow: "P30D", banTerm: "P3D"),
        ])
    static let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!
    static let mandate = try! Mandate(
        json: FixtureRecords.mandate(
            user: user, interface: FixtureInterface(), authority: authority,
            classes: ["harassment", "harassment-permanent", "spam"], deviceBinding: "enrollment:device-1",
            acceptedAt: "2026-01-01T00:00:00Z"))

    static func fact(
        _ disposition: FixtureRecords.Disposition, _ caseId: String, _ classId: String, decided: String,
        received: String? = nil
    ) -> VerdictFact {
        let verdict = try! Verdict(
            json: FixtureRecords.verdict(
                disposition, caseId: caseId, mandate: mandate, authority: authority, classId: classId,
                decidedAt: decided))
        return VerdictFact(
            verdict: verdict, receivedAt: Instant.parse(received ?? decided)!, manifest: authority.manifest())
    }

    static func fold(_ facts: [VerdictFact], at time: String) -> DeviceFold.Result {
        DeviceFold.evaluate(facts, at: Instant.parse(time)!)
    }

    /// A reversal decided after the deadline of a case that was decided in time lifts the ban.
    @Test(arguments: ["harassment", "harassment-permanent"])
    func reversalAfterTheDeadlineOfACaseDecidedInTimeLiftsTheBan(classId: String) {
        let open = Self.fact(.openCase, "c1", classId, decided: "2026-03-16T00:00:00Z")  // deadline 03-30
        let ban = Self.fact(.ban, "c1", classId, decided: "2026-03-21T00:00:00Z")  // executeAfter 03-31
        let reversal = Self.fact(.dismiss, "c1", classId, decided: "2026-04-25T00:00:00Z")
        #expect(open.decisionDeadline == Instant.parse("2026-03-30T00:00:00Z"))
        let banned = Self.fold([open, ban], at: "2026-04-01T00:00:00Z")
        #expect(banned.bits == DeviceBits(caseOpen: false, banned: true))
        let lifted = Self.fold([open, ban, reversal], at: "2026-04-25T10:26:53Z")
        #expect(lifted.bits == .clear)
        #expect(lifted.authorizedBy == reversal.ref.hex)
    }

    /// A ban decided after the deadline, in a case dismissed in time, is executed.
    @Test func banAfterAnInTimeDismissalIsExecuted() {
        let open = Self.fact(.openCase, "c2", "spam", decided: "2026-02-15T00:00:00Z")  // deadline 02-20
        let dismiss = Self.fact(.dismiss, "c2", "spam", decided: "2026-02-19T00:00:00Z")
        let ban = Self.fact(.ban, "c2", "spam", decided: "2026-02-24T00:00:00Z")  // expires 02-27
        let result = Self.fold([open, dismiss, ban], at: "2026-02-24T03:50:42Z")
        #expect(result.bits == DeviceBits(caseOpen: false, banned: true))
        #expect(result.authorizedBy == ban.ref.hex)
        #expect(Self.fold([open, dismiss, ban], at: "2026-02-27T00:00:00Z").authorizedBy == "expiry")
    }

    /// The same in other forms: a re-ban after an in-time reversal, and a second ban.
    @Test func reBanAfterAnInTimeReversalAndASecondBanAreExecuted() {
        let open = Self.fact(.openCase, "c3", "spam", decided: "2026-02-15T00:00:00Z")  // deadline 02-20
        let ban = Self.fact(.ban, "c3", "spam", decided: "2026-02-18T00:00:00Z")  // 02-18 .. 02-21
        let reversal = Self.fact(.dismiss, "c3", "spam", decided: "2026-02-19T00:00:00Z")
        let reBan = Self.fact(.ban, "c3", "spam", decided: "2026-02-24T00:00:00Z")
        #expect(Self.fold([open, ban, reversal], at: "2026-02-19T00:00:01Z").bits == .clear)
        let reBanned = Self.fold([open, ban, reversal, reBan], at: "2026-02-24T00:00:01Z")
        #expect(reBanned.bits.banned)
        #expect(reBanned.authorizedBy == reBan.ref.hex)
        let second = Self.fact(.ban, "c3", "spam", decided: "2026-02-25T00:00:00Z")
        let both = Self.fold([open, ban, second], at: "2026-02-25T00:00:01Z")
        #expect(both.authorizedBy == second.ref.hex)
    }

    /// A late dismissal does not take the deadline default's name.
    @Test func lateDismissalKeepsTheDefaultsName() {
        let open = Self.fact(.openCase, "c4", "harassment", decided: "2026-03-10T00:00:00Z")  // deadline 03-24
        let late = Self.fact(.dismiss, "c4", "harassment", decided: "2026-04-07T00:00:00Z")
        #expect(Self.fold([open, late], at: "2026-03-25T00:00:00Z").authorizedBy == "decision-deadline-default")
        let after = Self.fold([open, late], at: "2026-04-08T00:00:00Z")
        #expect(after.bits == .clear)
        #expect(after.authorizedBy == "decision-deadline-default")
        #expect(after.appliedRules == [.decisionDeadlineDefault])
        // A late ban in a defaulted case is not executed either, nor is a later open-case verdict.
        let lateBan = Self.fact(.ban, "c4", "spam", decided: "2026-04-09T00:00:00Z")
        let reopen = Self.fact(.openCase, "c4", "spam", decided: "2026-04-10T00:00:00Z")
        let still = Self.fold([open, late, lateBan, reopen], at: "2026-04-11T00:00:00Z")
        #expect(still.bits == .clear)
        #expect(still.authorizedBy == "decision-deadline-default")
    }

    /// Decision: an open-case verdict decided after the case's terminal verdict reopens the case-open
    /// mark with its own deadline; the earlier ban stands; the reopened case's default clears only the
    /// case-open mark, and verdicts after it still execute (the case was decided in time).
    @Test func openCaseAfterADecisionReopensTheCase() {
        let ban = Self.fact(.ban, "c5", "harassment-permanent", decided: "2026-05-01T00:00:00Z")  // from 05-11
        let reopen = Self.fact(.openCase, "c5", "harassment-permanent", decided: "2026-05-20T00:00:00Z")
        let both = Self.fold([ban, reopen], at: "2026-05-21T00:00:00Z")
        #expect(both.bits == DeviceBits(caseOpen: true, banned: true))
        #expect(both.openCases.map(\.ref) == [reopen.ref])
        let defaulted = Self.fold([ban, reopen], at: "2026-06-04T00:00:00Z")  // 05-20 + P14D
        #expect(defaulted.bits == DeviceBits(caseOpen: false, banned: true))
        let reversal = Self.fact(.dismiss, "c5", "harassment-permanent", decided: "2026-06-10T00:00:00Z")
        let lifted = Self.fold([ban, reopen, reversal], at: "2026-06-10T00:00:00Z")
        #expect(lifted.bits == .clear)
        #expect(lifted.authorizedBy == reversal.ref.hex)
    }

    /// Decision: the first open-case verdict of a case fixes its deadline; later ones neither extend
    /// it nor open a second case.
    @Test func theFirstOpenCaseVerdictFixesTheDeadline() {
        let first = Self.fact(.openCase, "c6", "spam", decided: "2026-07-01T00:00:00Z")  // deadline 07-06
        let second = Self.fact(.openCase, "c6", "harassment", decided: "2026-07-05T00:00:00Z")  // would be 07-19
        let result = Self.fold([second, first], at: "2026-07-05T12:00:00Z")
        #expect(result.openCases.map(\.ref) == [first.ref])
        #expect(Self.fold([first, second], at: "2026-07-06T00:00:00Z").bits == .clear)
        // A ban decided on 07-10 is late for the case the first verdict opened.
        let ban = Self.fact(.ban, "c6", "spam", decided: "2026-07-10T00:00:00Z")
        #expect(!Self.fold([first, second, ban], at: "2026-07-10T00:00:01Z").bits.banned)
    }

    /// Decision: a verdict counts from the later of its receipt and its signed decision time.
    /// F1: the reference executes a verdict when it arrives, even one signed up to 300 s ahead of the
    /// receiving clock (onym-wire §4.1 step 2, §4.3): an honest write at the receipt instant follows it.
    @Test func aVerdictCountsFromItsReceipt() {
        let open = Self.fact(
            .openCase, "c7", "spam", decided: "2026-07-01T00:04:00Z", received: "2026-07-01T00:00:00Z")
        #expect(Self.fold([open], at: "2026-06-30T23:59:59Z").bits == .clear)
        #expect(Self.fold([open], at: "2026-07-01T00:00:00Z").bits.caseOpen)
        #expect(Self.fold([open], at: "2026-07-01T00:00:00Z").authorizedBy == open.ref.hex)
    }

    /// F1 with F7: a ban received before the case's deadline but signed after it is late: at its receipt the
    /// case stays open (the ban will never execute), and the deadline default closes it when it comes.
    @Test func aReceivedVerdictSignedAfterTheDeadlineStaysLate() {
        let open = Self.fact(.openCase, "c8", "harassment", decided: "2026-03-16T00:00:00Z")  // deadline 03-30
        let ban = Self.fact(
            .ban, "c8", "harassment", decided: "2026-03-30T00:01:00Z", received: "2026-03-29T23:58:00Z")
        #expect(open.decisionDeadline == Instant.parse("2026-03-30T00:00:00Z"))
        let before = Self.fold([open, ban], at: "2026-03-29T23:59:00Z")
        #expect(before.bits == DeviceBits(caseOpen: true, banned: false))
        #expect(before.authorizedBy == open.ref.hex)
        let after = Self.fold([open, ban], at: "2026-03-30T00:05:00Z")
        #expect(after.bits == .clear)
        #expect(after.authorizedBy == EvaluatorRule.decisionDeadlineDefault.rawValue)
    }

    /// A write logged in whole seconds (as the reference logs every time) happened somewhere in its second:
    /// a deadline default 0.221 s into it may come before or after the write, and either honest write is
    /// explained — but not a write the rules give at no instant of that second.
    @Test func aWholeSecondWriteIsJudgedOverItsSecond() throws {
        let open = Self.fact(.openCase, "c9", "harassment", decided: "2026-03-16T00:00:00.221Z")
        #expect(open.decisionDeadline == Instant.parse("2026-03-30T00:00:00.221Z"))
        func write(_ at: String, _ by: String, caseOpen: Bool) throws -> WriteLogEntry {
            try WriteLogEntry(
                sequence: 1, recordedAt: at, deviceBinding: open.deviceBinding, authorizedBy: WireString(by),
                caseOpen: caseOpen,
                banned: false, outcome: "ok", fieldsWritten: nil, previousHash: WriteLogEntry.genesis)
        }
        let cleared = try write("2026-03-30T00:00:00Z", EvaluatorRule.decisionDeadlineDefault.rawValue, caseOpen: false)
        #expect(WriteReplay.check(cleared, facts: [open]) == nil)
        let stillOpen = try write("2026-03-30T00:00:00Z", open.ref.hex, caseOpen: true)
        #expect(WriteReplay.check(stillOpen, facts: [open]) == nil)
        let aSecondLate = try write("2026-03-30T00:00:01Z", open.ref.hex, caseOpen: true)
        #expect(WriteReplay.check(aSecondLate, facts: [open]) != nil)
        let aSecondEarly = try write(
            "2026-03-29T23:59:59Z", EvaluatorRule.decisionDeadlineDefault.rawValue, caseOpen: false)
        #expect(WriteReplay.check(aSecondEarly, facts: [open]) != nil)
    }

    /// A statement of reasons reports a restriction that took effect (``Restriction``): a suspensive ban in
    /// force from its executeAfter until its reversal; the same ban reversed inside its window, none.
    @Test func restrictionsAreTheBansTheFoldExecuted() {
        let open = Self.fact(.openCase, "c10", "harassment", decided: "2026-03-16T00:00:00Z")
        let ban = Self.fact(.ban, "c10", "harassment", decided: "2026-03-21T00:00:00Z")  // executeAfter 03-31
        let reversal = Self.fact(.dismiss, "c10", "harassment", decided: "2026-04-25T00:00:00Z")
        let end = Instant.parse("2026-06-01T00:00:00Z")!
        let lifted = Restriction.all([open, ban, reversal], upTo: end)
        #expect(lifted.count == 1)
        #expect(lifted.first?.ban.ref == ban.ref)
        #expect(lifted.first?.startedAt == ban.executeAfter)
        #expect(lifted.first?.endedAt == Instant.parse("2026-04-25T00:00:00Z"))
        #expect(lifted.first?.endedBy == reversal.ref.hex)
        let early = Self.fact(.dismiss, "c10", "harassment", decided: "2026-03-25T00:00:00Z")
        #expect(Restriction.all([open, ban, early], upTo: end).isEmpty)
        // Not reversed: it ends by its expiry; still in force at the export's time: no end yet.
        let expired = Restriction.all([open, ban], upTo: end).first
        #expect(expired?.endedAt == ban.banExpires)
        #expect(expired?.endedBy == EvaluatorRule.expiry.rawValue)
        #expect(Restriction.all([open, ban], upTo: Instant.parse("2026-04-01T00:00:00Z")!).first?.endedAt == nil)
    }
}
