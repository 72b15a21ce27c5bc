import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore

@Suite("Canonical JSON")
struct CanonicalJSONTests {
    static let cases = Vectors.canonicalCases()

    @Test func thereAreAtLeastSixtyVectors() {
        #expect(Self.cases.count >= 60)
        #expect(Self.cases.allSatisfy { ($0.expected == nil) != ($0.errorCode == nil) })
    }

    @Test(arguments: cases)
    func vector(_ testCase: Vectors.CanonicalCase) throws {
        if let expected = testCase.expected {
            let object = try CanonicalJSON.parse(testCase.input)
            let encoded = CanonicalJSON.encode(object)
            #expect(encoded == expected, "\(String(decoding: encoded, as: UTF8.self))")
            // The expected form is itself canonical, parses to the same value, and round-trips.
            #expect(CanonicalJSON.isCanonical(expected))
            #expect(try CanonicalJSON.parse(expected) == object)
            #expect(CanonicalJSON.isCanonical(testCase.input) == (testCase.input == expected))
        } else {
            let code = try #require(testCase.errorCode)
            #expect(throws: LedgerFormatError(.init(code), "")) { try CanonicalJSON.parse(testCase.input) }
            #expect(!CanonicalJSON.isCanonical(testCase.input))
        }
    }

    /// For the cases listed as JCS-compatible, the expected output's key order is also RFC 8785's
    /// UTF-16 code-unit order, so a JCS implementation produces the same bytes.
    @Test func jcsCompatibleSubsetAgreesWithUTF16Ordering() throws {
        let names = Vectors.text("canonical-json/jcs-compatible.txt").split(separator: "\n").map(String.init)
        #expect(names.count >= 20)
        func utf16Sorted(_ value: JSONValue) -> Bool {
            switch value {
            case .object(let object):
                let keys = object.keys
                let ordered = zip(keys, keys.dropFirst()).allSatisfy { $0.utf16.lexicographicallyPrecedes($1.utf16) }
                return ordered && object.members.allSatisfy { utf16Sorted($0.value) }
            case .array(let elements):
                return elements.allSatisfy(utf16Sorted)
            default:
                return true
            }
        }
        for name in names {
            let expected = Vectors.bytes("canonical-json/\(name).expected")
            #expect(utf16Sorted(.object(try CanonicalJSON.parse(expected))), "\(name)")
        }
        // And the one case that is deliberately not JCS: a supplementary-plane key.
        let divergent = Vectors.bytes("canonical-json/non-ascii-keys-utf8-order.expected")
        #expect(!utf16Sorted(.object(try CanonicalJSON.parse(divergent))))
    }

    @Test func errorsCarryByteOffsets() throws {
        let error = try #require(throws: LedgerFormatError.self) {
            try CanonicalJSON.parse(Array(#"{"a":1,"a":2}"#.utf8))
        }
        #expect(error.code == .duplicateKey)
        #expect(error.offset == 7)
    }

    @Test func nonCanonicalInputNamesTheFirstDifference() throws {
        #expect(throws: LedgerFormatError(.nonCanonical, "")) {
            try CanonicalJSON.parseCanonical(Array(#"{"b":1,"a":2}"#.utf8))
        }
        // Input that parses but is not canonical must throw, and name where it first differs.
        let error = try #require(throws: LedgerFormatError.self) {
            try CanonicalJSON.parseCanonical(Array(#"{"a":1, "b":2}"#.utf8))
        }
        #expect(error.code == .nonCanonical)
        #expect(error.offset == 7)
    }

    @Test func signingBytesVectors() throws {
        let document = Vectors.json("reference/expected.json") as! [String: Any]
        for entry in document["signingBytes"] as! [[String: String]] {
            let object = try CanonicalJSON.parse(Array(entry["input"]!.utf8))
            let bytes = CanonicalJSON.signingBytes(of: object, omitting: entry["omit"]!)
            #expect(String(decoding: bytes, as: UTF8.self) == entry["expected"]!, "\(entry["comment"]!)")
        }
    }

    /// The signing bytes a record cuts from the encoding the loader made (`CanonicalEncoding.omitting`) are
    /// those of the object with the member removed and encoded again: for every member of random objects —
    /// first, last, middle, the only one — for absent keys, nested objects of the same key (only the top
    /// level loses it), keys that differ only in their canonical equivalence, and the reference vectors.
    @Test func signingBytesCutFromTheEncodingAreTheEncodingWithoutTheMember() throws {
        let document = Vectors.json("reference/expected.json") as! [String: Any]
        for entry in document["signingBytes"] as! [[String: String]] {
            let object = try CanonicalJSON.parse(Array(entry["input"]!.utf8))
            let cut = CanonicalEncoding(of: object).omitting(entry["omit"]!)
            #expect(String(decoding: cut, as: UTF8.self) == entry["expected"]!, "\(entry["comment"]!)")
        }
        let keys = ["a", "signature", "sig", "signatures", "z", "\u{E9}", "e\u{301}", "q\"uote", "", "\u{1F600}"]
        var generator = SystemRandomNumberGenerator()
        func value(depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 1 ? 4 : 6), using: &generator) {
            case 0: return .integer(Int64.random(in: -1_000...1_000, using: &generator))
            case 1: return .string(keys.randomElement(using: &generator)! + "\n\u{1}")
            case 2: return .bool(Bool.random(using: &generator))
            case 3: return .null
            case 4: return .object(object(depth: depth + 1))
            default: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth: depth + 1) })
            }
        }
        func object(depth: Int) -> JSONObject {
            var object = JSONObject()
            for key in keys.shuffled(using: &generator).prefix(Int.random(in: 0...keys.count, using: &generator)) {
                object.set(key, value(depth: depth))
            }
            return object
        }
        for _ in 0..<400 {
            let random = object(depth: 0)
            let encoding = CanonicalEncoding(of: random)
            #expect(encoding.bytes == CanonicalJSON.encode(random))
            for key in keys + ["absent", "signaturex"] {
                let expected = CanonicalJSON.signingBytes(of: random, omitting: key)
                #expect(
                    encoding.omitting(key) == expected,
                    "\(String(decoding: encoding.bytes, as: UTF8.self)) without \(key)")
            }
        }
    }

    /// The loader's decode reaches the mandate's and the verdict's own initializers with its encoding (not the
    /// protocol's default, which would encode again): given the encoding of another object, their signing
    /// bytes and refs follow it; given their own, they are what `init(json:)` gives.
    @Test func aSignedRecordTakesItsSigningBytesFromTheEncodingItIsGiven() throws {
        let mandateJSON = FixtureRecords.mandate(
            user: EvaluatorTests.user, interface: FixtureInterface(), authority: EvaluatorTests.authority,
            classes: ["csam"], deviceBinding: "enrollment:device-1", acceptedAt: "2026-08-01T00:00:00Z")
        let mandate = try Mandate(json: mandateJSON)
        let verdictJSON = FixtureRecords.verdict(
            .openCase, caseId: "a", mandate: mandate, authority: EvaluatorTests.authority, classId: "csam",
            decidedAt: "2026-08-10T00:00:00Z")
        let kinds: [(any StoredRecord.Type, JSONObject, ContentAddress)] = [
            (Mandate.self, mandateJSON, mandate.ref), (Verdict.self, verdictJSON, try Verdict(json: verdictJSON).ref),
        ]
        for (kind, json, ref) in kinds {
            let bytes = CanonicalJSON.encode(json)
            let own = try kind.init(storedBytes: bytes, json: json, encoding: CanonicalEncoding(of: json))
            #expect(own.address == ref, "\(kind.kindName)")
            var other = json
            other.set("zz-not-a-field", .integer(1))
            let given = try kind.init(storedBytes: bytes, json: json, encoding: CanonicalEncoding(of: other))
            #expect(given.address != ref, "\(kind.kindName): the encoding given is the one cut")
        }
    }

    /// A batch's digest writes each request without building its object (`WriteRequest.write(into:)`): the
    /// digest is SHA-256 over the general encoder's bytes of each request's object, each followed by `\n`,
    /// for requests with and without `fieldsWritten`, with escapes, control and non-ASCII characters.
    @Test func aBatchDigestIsOverTheCanonicalFormOfEachRequest() throws {
        let texts = [
            "ok", "failed: quota \"exceeded\"", "back\\slash", "tab\tline\n", "\u{01}\u{7F}", "caf\u{E9}\u{1F600}",
            "\u{2028}",
        ]
        func pick() -> String { texts.randomElement()! }
        for count in [0, 1, 2, 7, 40] {
            var requests: [WriteRequest] = []
            for _ in 0..<count {
                let second = Int.random(in: 0...9)
                let outcome = Bool.random() ? "ok" : "failed: " + pick()
                var members: [(String, JSONValue)] = [
                    ("recordedAt", .string("2026-08-10T01:00:0\(second)Z")), ("deviceBinding", .string(pick() + "-b")),
                    ("authorizedBy", .string("a-" + pick())), ("caseOpen", .bool(Bool.random())),
                    ("banned", .bool(Bool.random())), ("outcome", .string(outcome)),
                ]
                if Bool.random() { members.append(("fieldsWritten", .string(pick()))) }
                requests.append(try WriteRequest(json: JSONObject(members)))
            }
            var general: [UInt8] = []
            for request in requests { general += CanonicalJSON.encode(request.json) + [0x0A] }
            #expect(WriteRequest.digest(requests) == SHA256.hash(general), "\(count) requests")
        }
    }

    /// Precomposed and decomposed spellings are equal as Swift Strings but distinct JSON keys.
    @Test func keysCompareByBytesNotCanonicalEquivalence() throws {
        let object = try CanonicalJSON.parse(Array("{\"\u{E9}\":1,\"e\u{301}\":2}".utf8))
        #expect(object.count == 2)
        #expect(object["\u{E9}"] == .integer(1))
        #expect(object["e\u{301}"] == .integer(2))
        #expect(JSONValue.string("\u{E9}") != JSONValue.string("e\u{301}"))
    }

    /// A log entry is written without building its object (`CanonicalEncoder.writeMembers`): its bytes
    /// are the canonical form of `{"path":…,"sha256":…}` built and encoded the general way, for paths that
    /// need escapes, non-ASCII and control characters as well as a ledger's own.
    @Test func aLogEntryIsTheCanonicalFormOfItsObject() {
        let paths = [
            "batches/0000000/0000000042/verdicts/a/" + String(repeating: "ab", count: 32) + ".json",
            "log/0000000000/000/0000000000000001.json", "ledger.json", "", "a\"b", "back\\slash", "tab\tnew\nline",
            "\u{01}\u{1F}\u{7F}", "caf\u{E9}/\u{1F600}", "\u{2028}",
        ]
        for path in paths {
            let hash = SHA256.hash(Array(path.utf8))
            let general = CanonicalJSON.encode(JSONObject([("sha256", .string(hash.hex)), ("path", .string(path))]))
            #expect(LedgerLog.entry(path: path, sha256: hash) == general, "\(path)")
        }
    }

    /// Key order is UTF-8 byte order (reference §1.1), compared on the keys' bytes: small strings (at most 15
    /// bytes, kept inline), long ones, non-ASCII, and prefixes of one another, against the bytes' own order.
    @Test func keysAreOrderedByTheirUTF8Bytes() {
        let keys = [
            "", "a", "b", "ab", "abc", "z", "mandateVersion", "manifestHash", "a-key-longer-than-fifteen-bytes",
            "a-key-longer-than-fifteen-bytez", "\u{E9}", "e\u{301}", "\u{FF61}", "\u{10000}", "\u{1F600}", "Z", "~",
        ]
        for a in keys {
            for b in keys {
                let expected = Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
                #expect(a.utf8Precedes(b) == expected, "\(a.debugDescription) < \(b.debugDescription)")
                let sign = a.utf8.elementsEqual(b.utf8) ? 0 : (expected ? -1 : 1)
                #expect(a.utf8Compare(b).signum() == sign, "\(a.debugDescription) <=> \(b.debugDescription)")
            }
        }
    }

    /// Whether a file is canonical is one comparison of its bytes with the encoding: equal bytes only.
    @Test func aFileIsCanonicalOnlyWhenItsBytesAreTheEncodings() throws {
        let object = try CanonicalJSON.parse(Array(#"{"a":1,"b":"two"}"#.utf8))
        let encoding = CanonicalEncoding(of: object)
        #expect(encoding.isIdentical(to: Array(#"{"a":1,"b":"two"}"#.utf8)))
        // Any one byte changed, the first and the last among them.
        for index in encoding.bytes.indices {
            var changed = encoding.bytes
            changed[index] ^= 0x01
            #expect(!encoding.isIdentical(to: changed), "byte \(index) changed")
        }
        #expect(!encoding.isIdentical(to: Array(#"{"a":1,"b":"two"} "#.utf8)))
        #expect(!encoding.isIdentical(to: Array(#"{"a":1,"b":"tw"}"#.utf8)))
        #expect(!encoding.isIdentical(to: []))
        #expect(CanonicalEncoding(of: JSONObject()).isIdentical(to: Array("{}".utf8)))
    }
}
