import Testing

import LedgerFormat
@testable import LedgerVerifier

/// A binding record keeps its facts' repeated strings once (``BindingRecord/receive(_:shared:)``): the facts
/// stay equal to the ones received, and the strings they repeat are one copy.
@Suite struct SharedFactStringsTests {
    /// A new copy of `text` (its own storage, as a string decoded from a record is).
    static func copy(_ text: String) -> WireString { WireString(String(decoding: Array(text.utf8), as: UTF8.self)) }

    /// Where a string's bytes are kept: two strings sharing storage have the same address.
    static func storage(_ text: WireString) -> UnsafeRawPointer? {
        text.text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    static func fact(_ number: Int, case caseId: String, disposition: Verdict.Disposition, accused: [String])
        -> VerdictFact
    {
        VerdictFact(
            ref: ContentAddress(bytes: [UInt8](repeating: UInt8(number), count: 32)), caseId: copy(caseId),
            authority: copy("onym:component:an-authority-named-at-length"),
            deviceBinding: copy("enrollment:a-binding-named-at-length"), disposition: disposition,
            decidedAt: Instant(seconds: 1_700_000_000 + Int64(number)), executeAfter: nil, banExpires: nil,
            receivedAt: Instant(seconds: 1_700_000_100 + Int64(number), nanoseconds: 5),
            decisionDeadline: nil, externalAppellate: copy("onym:component:an-external-appellate-forum"),
            accusedKeys: accused.map(copy))
    }

    static let user = "onym:key:" + String(repeating: "ab", count: 32)
    static let other = "onym:key:" + String(repeating: "cd", count: 32)

    @Test func theFactsAreTheOnesReceivedAndTheirRepeatedStringsOneCopy() {
        let received = [
            Self.fact(1, case: "a-case-id-longer-than-fifteen-bytes", disposition: .openCase, accused: [Self.user]),
            Self.fact(2, case: "a-case-id-longer-than-fifteen-bytes", disposition: .ban, accused: [Self.user]),
            Self.fact(3, case: "another-case-id-longer-than-fifteen", disposition: .openCase, accused: [Self.other]),
        ]
        var record = BindingRecord(identity: .init(user: Self.copy(Self.user), acceptedAt: Instant(seconds: 1)))
        var shared = SharedStrings()
        for fact in received { record.receive(fact, shared: &shared) }
        #expect(record.facts == received)

        let (first, second, third) = (record.facts[0], record.facts[1], record.facts[2])
        #expect(Self.storage(first.accusedKeys[0]) == Self.storage(record.identity!.user))
        #expect(Self.storage(second.accusedKeys[0]) == Self.storage(first.accusedKeys[0]))
        #expect(Self.storage(second.caseId) == Self.storage(first.caseId))
        #expect(Self.storage(third.caseId) != Self.storage(first.caseId))
        #expect(Self.storage(third.accusedKeys[0]) != Self.storage(first.accusedKeys[0]))
        for later in [second, third] {
            #expect(Self.storage(later.authority) == Self.storage(first.authority))
            #expect(Self.storage(later.deviceBinding) == Self.storage(first.deviceBinding))
            #expect(Self.storage(later.externalAppellate!) == Self.storage(first.externalAppellate!))
        }
        #expect(shared.count == 2)

        // Another binding's facts share the authority through the same strings.
        var elsewhere = BindingRecord()
        elsewhere.receive(Self.fact(4, case: "x", disposition: .dismiss, accused: []), shared: &shared)
        #expect(Self.storage(elsewhere.facts[0].authority) == Self.storage(first.authority))
        #expect(shared.count == 2)
    }

    @Test func aRecordReadFromItsTableBytesIsTheRecordWritten() {
        var record = BindingRecord(lastWritten: DeviceBits(caseOpen: true, banned: false))
        var shared = SharedStrings()
        for number in 1...4 {
            record.receive(
                Self.fact(
                    number, case: "case-\(number / 2)", disposition: .openCase, accused: [Self.user, Self.other]),
                shared: &shared)
        }
        let bytes = BindingRecord.Codec.bytes(of: record)
        let read = BindingRecord.Codec.value(from: bytes, key: "enrollment:a-binding-named-at-length")
        #expect(read == record)
        #expect(read.map { Self.storage($0.facts[3].authority) == Self.storage($0.facts[0].authority) } == true)
    }
}
