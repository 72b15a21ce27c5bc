import Foundation
import Testing

@testable import LedgerFormat
import LedgerStore
import LedgerTestSupport

/// Every vector and fixture record, and a mutation of each that breaks one field rule, is run
/// through an outside JSON Schema 2020-12 validator (python `jsonschema`, via
/// scripts/validate-records.py) and through the Swift decoder; both must agree on accept/reject.
@Suite("Schemas agree with the decoders")
struct SchemaAgreementTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Sample {
        let name: String
        /// The schema's name (`schemas/<schema>.schema.json`).
        let schema: String
        let bytes: [UInt8]
        let shouldBeValid: Bool
        /// The Swift decoder for this kind.
        let decode: ([UInt8]) throws -> Void

        init(name: String, kind: RecordKind, bytes: [UInt8], shouldBeValid: Bool) {
            self.init(name: name, schema: kind.rawValue, bytes: bytes, shouldBeValid: shouldBeValid) {
                try Self.decode($0, as: kind)
            }
        }

        /// The library's decoder for `kind`: a stored kind's own (``StoredRecord``), or a wire shape's.
        static func decode(_ bytes: [UInt8], as kind: RecordKind) throws {
            if let stored = kind.stored {
                _ = try stored.init(storedBytes: bytes)
                return
            }
            let object = try CanonicalJSON.parse(bytes)
            switch kind {
            case .verdictSubmission: _ = try VerdictSubmission(json: object)
            case .writeLogEntry: _ = try WriteLogEntry(json: object)
            case .caseNotice: _ = try CaseNotice(json: object)
            case .banState: _ = try BanState(json: object)
            case .gateResult: _ = try GateResult(json: object)
            default: Issue.record("\(kind.rawValue) is a stored kind without a registration")
            }
        }

        init(
            name: String, schema: String, bytes: [UInt8], shouldBeValid: Bool,
            decode: @escaping ([UInt8]) throws -> Void
        ) {
            self.name = name
            self.schema = schema
            self.bytes = bytes
            self.shouldBeValid = shouldBeValid
            self.decode = decode
        }
    }

    static func corpus() -> [Sample] {
        let authority = FixtureAuthority(
            classes: FixtureClass.referenceClasses + [FixtureClass("permanent-harm", banTerm: "permanent")])
        let user = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x05))!
        let mandateJSON = FixtureRecords.mandate(
            user: user, interface: FixtureInterface(), authority: authority, classes: ["csam", "permanent-harm"],
            deviceBinding: "enrollment:1", acceptedAt: "2026-08-08T00:00:00Z")
        let mandate = try! Mandate(json: mandateJSON)
        let ban = FixtureRecords.verdict(
            .ban, caseId: "case-1", mandate: mandate, authority: authority, classId: "csam",
            decidedAt: "2026-08-18T00:00:00Z",
            extra: [
                ("appealUrl", .string("https://a.example/appeal")), ("newHolderUrl", .string("https://a.example/nh")),
            ])
        let open = FixtureRecords.verdict(
            .openCase, caseId: "case-2", mandate: mandate, authority: authority, classId: "csam",
            decidedAt: "2026-08-18T00:00:00Z")
        let dismiss = FixtureRecords.verdict(
            .dismiss, caseId: "case-2", mandate: mandate, authority: authority, classId: "csam",
            decidedAt: "2026-08-19T00:00:00+02:00")
        let receipt = VerdictReceipt(
            verdictRef: try! Verdict(json: ban).ref, status: .queued, receivedAt: Instant.parse("2026-08-18T00:05:00Z")!
        )
        let entry = try! WriteLogEntry(
            sequence: 1, recordedAt: "2026-08-18T01:00:00Z", deviceBinding: "enrollment:1",
            authorizedBy: WireString(try! Verdict(json: ban).ref.hex), caseOpen: false, banned: true, outcome: "ok",
            previousHash: WriteLogEntry.genesis)
        let failed = try! WriteLogEntry(
            sequence: 2, recordedAt: "2026-08-18T01:00:00Z", deviceBinding: "enrollment:1", authorizedBy: "expiry",
            caseOpen: false, banned: false, outcome: "failed: mark_write_failed: timeout", fieldsWritten: "{}",
            previousHash: entry.entryHash)
        let notice = CaseNotice(projecting: try! Verdict(json: open), terms: authority.manifest().classes[0])
        let banState = BanState(governing: try! Verdict(json: ban))

        var samples: [Sample] = []
        func add(_ name: String, _ kind: RecordKind, _ object: JSONObject, valid: Bool = true) {
            samples.append(Sample(name: name, kind: kind, bytes: CanonicalJSON.encode(object), shouldBeValid: valid))
        }
        func mutate(_ name: String, _ kind: RecordKind, _ base: JSONObject, _ edit: (inout JSONObject) -> Void) {
            var copy = base
            edit(&copy)
            add(name, kind, copy, valid: false)
        }

        samples.append(
            Sample(
                name: "reference-mandate", kind: .mandate,
                bytes: Vectors.bytes("reference/derived-mandate.json"), shouldBeValid: true))
        samples.append(
            Sample(
                name: "reference-verdict", kind: .verdict,
                bytes: Vectors.bytes("reference/derived-ban-verdict.json"), shouldBeValid: true))
        samples.append(
            Sample(name: "fixture-manifest", kind: .manifest, bytes: authority.manifestBytes, shouldBeValid: true))
        add("profile", .profile, FixtureProfile.appleDeviceCheck)
        add("mandate", .mandate, mandateJSON)
        add("verdict-ban", .verdict, ban)
        add("verdict-open-case", .verdict, open)
        add("verdict-dismiss", .verdict, dismiss)
        add("submission", .verdictSubmission, FixtureRecords.submission(ban, authority: authority))
        add("receipt", .receipt, receipt.json)
        add("entry", .writeLogEntry, entry.json)
        add("entry-failed-android", .writeLogEntry, failed.json)
        add("notice", .caseNotice, notice.json)
        add("ban-state", .banState, banState.json)
        add("gate-clear", .gateResult, GateResult.clear.json)
        add("gate-case-open", .gateResult, GateResult.caseOpen([notice]).json)
        add("gate-banned", .gateResult, GateResult.banned(banState).json)
        add("gate-check-required", .gateResult, GateResult.checkRequired(.reidentificationRequired).json)

        let attempt = FixtureRecords.statusAttempt(
            interface: FixtureInterface(), authority: authority.componentId, attemptedAt: "2026-09-01T00:00:00Z")
        let answered = FixtureRecords.statusAttempt(
            interface: FixtureInterface(), authority: authority.componentId, attemptedAt: "2026-09-01T00:00:00Z",
            answeredAt: "2026-09-01T00:01:00Z")
        let report = FixtureRecords.compromiseReport(
            authority: authority, compromisedAt: "2026-09-01T00:00:00Z", reportedAt: "2026-09-02T00:00:00Z")
        let revocation = FixtureRecords.revocation(
            interface: FixtureInterface(), authority: authority.componentId, trigger: "authority-compromise",
            effectiveAt: "2026-09-01T00:00:00Z", determinedAt: "2026-09-02T00:00:00Z",
            evidence: [try! CompromiseReport(json: report).ref])
        add("status-attempt", .statusAttempt, attempt)
        add("status-attempt-answered", .statusAttempt, answered)
        add("compromise-report", .compromiseReport, report)
        add("revocation", .revocation, revocation)
        mutate("attempt-answered-without-time", .statusAttempt, attempt) { $0.set("answered", .bool(true)) }
        mutate("attempt-unknown-field", .statusAttempt, attempt) { $0.set("note", .string("x")) }
        mutate("report-without-manifest", .compromiseReport, report) { $0.remove("manifestHash") }
        mutate("revocation-unknown-trigger", .revocation, revocation) { $0.set("trigger", .string("boredom")) }
        mutate("revocation-no-evidence", .revocation, revocation) { $0.set("evidence", .array([])) }

        // One broken rule each.
        let manifestJSON = authority.manifest().json
        func manifestMutation(_ name: String, _ edit: (inout JSONObject) -> Void) {
            var copy = manifestJSON
            edit(&copy)
            samples.append(
                Sample(name: name, kind: .manifest, bytes: PrettyJSON.render(.object(copy)), shouldBeValid: false))
        }
        manifestMutation("manifest-no-operator") { $0.remove("operator") }
        manifestMutation("manifest-bad-duration") { object in
            var classes = object["violationClasses"]!
            if case .array(var list) = classes, case .object(var first) = list[0] {
                first.set("appealWindow", .string("P0D"))
                list[0] = .object(first)
                classes = .array(list)
            }
            object.set("violationClasses", classes)
        }
        manifestMutation("manifest-bad-effect") { object in
            if case .array(var list) = object["violationClasses"]!, case .object(var first) = list[0] {
                first.set("appealEffect", .string("sometimes"))
                list[0] = .object(first)
                object.set("violationClasses", .array(list))
            }
        }
        manifestMutation("manifest-version-2") { $0.set("version", .integer(2)) }
        mutate("profile-wrong-bits", .profile, FixtureProfile.appleDeviceCheck) {
            $0.set("markBindings", .object(JSONObject([("case-open", .string("bit1")), ("banned", .string("bit0"))])))
        }
        mutate("profile-no-specification", .profile, FixtureProfile.appleDeviceCheck) { $0.remove("specification") }
        mutate("mandate-no-classes", .mandate, mandateJSON) { $0.set("classes", .array([])) }
        mutate("mandate-repeated-class", .mandate, mandateJSON) {
            $0.set("classes", .array([.string("a"), .string("a")]))
        }
        mutate("mandate-uppercase-key", .mandate, mandateJSON) {
            $0.set("user", .string("onym:key:" + String(repeating: "A", count: 64)))
        }
        mutate("mandate-short-hash", .mandate, mandateJSON) { $0.set("manifestHash", .string("abc")) }
        mutate("mandate-three-signatures", .mandate, mandateJSON) { object in
            if case .array(let list) = object["signatures"]! { object.set("signatures", .array(list + [list[0]])) }
        }
        mutate("mandate-unpadded-signature", .mandate, mandateJSON) { $0.set("signatures", .array([.string("AAAA")])) }
        mutate("mandate-version-string", .mandate, mandateJSON) { $0.set("mandateVersion", .string("1")) }
        mutate("mandate-bad-timestamp", .mandate, mandateJSON) { $0.set("acceptedAt", .string("yesterday")) }
        mutate("mandate-blank-binding", .mandate, mandateJSON) { $0.set("deviceBinding", .string("  ")) }
        mutate("verdict-unknown-disposition", .verdict, ban) { $0.set("disposition", .string("reverse")) }
        mutate("verdict-extra-mark", .verdict, ban) {
            $0.set(
                "marks",
                .object(JSONObject([("case-open", .bool(false)), ("banned", .bool(true)), ("x", .bool(true))])))
        }
        mutate("verdict-no-signature", .verdict, ban) { $0.remove("signature") }
        mutate("verdict-final-string", .verdict, ban) { $0.set("final", .string("false")) }
        mutate("verdict-bad-mandate-ref", .verdict, ban) { $0.set("mandateRef", .string("XYZ")) }
        mutate("verdict-component-prefix", .verdict, ban) { $0.set("authority", .string("authority")) }
        mutate("submission-extra-field", .verdictSubmission, FixtureRecords.submission(ban, authority: authority)) {
            $0.set("note", .string("x"))
        }
        mutate("submission-not-base64", .verdictSubmission, FixtureRecords.submission(ban, authority: authority)) {
            $0.set("consentedManifest", .string("not base64!"))
        }
        mutate("receipt-executed", .receipt, receipt.json) { $0.set("status", .string("executed")) }
        mutate("receipt-extra", .receipt, receipt.json) { $0.set("note", .string("x")) }
        mutate("entry-sequence-zero", .writeLogEntry, entry.json) { $0.set("sequence", .integer(0)) }
        mutate("entry-bad-outcome", .writeLogEntry, entry.json) { $0.set("outcome", .string("maybe")) }
        mutate("entry-bad-previous", .writeLogEntry, entry.json) { $0.set("previousHash", .string("start")) }
        mutate("entry-unknown-field", .writeLogEntry, entry.json) { $0.set("app", .string("x")) }
        mutate("entry-bits-as-ints", .writeLogEntry, entry.json) { $0.set("banned", .integer(1)) }
        mutate("notice-missing-deadline", .caseNotice, notice.json) { $0.remove("decisionDeadline") }
        mutate("ban-state-no-contact", .banState, banState.json) { $0.remove("authorityContact") }
        mutate("gate-two-tags", .gateResult, GateResult.clear.json) { $0.set("banned", .object(JSONObject())) }
        mutate("gate-unknown-reason", .gateResult, GateResult.clear.json) {
            $0 = JSONObject([("checkRequired", .object(JSONObject([("_0", .string("bored"))])))])
        }
        mutate("gate-clear-payload", .gateResult, GateResult.clear.json) {
            $0.set("clear", .object(JSONObject([("_0", .integer(1))])))
        }

        // The input kinds `append` accepts that are not stored records (every input has a schema).
        func input(_ name: String, _ schema: String, _ object: JSONObject, valid: Bool = true) {
            samples.append(
                Sample(name: name, schema: schema, bytes: CanonicalJSON.encode(object), shouldBeValid: valid) {
                    let json = try CanonicalJSON.parse($0)
                    if schema == "write-request" {
                        _ = try WriteRequest(json: json)
                    } else {
                        _ = try AuditExport(json: json)
                    }
                })
        }
        var request = entry.json
        for key in ["sequence", "previousHash", "entryHash"] { request.remove(key) }
        input("write-request", "write-request", request)
        var android = failed.json
        for key in ["sequence", "previousHash", "entryHash"] { android.remove(key) }
        input("write-request-android", "write-request", android)
        func broken(_ name: String, _ schema: String, _ base: JSONObject, _ edit: (inout JSONObject) -> Void) {
            var copy = base
            edit(&copy)
            input(name, schema, copy, valid: false)
        }
        func brokenRequest(_ name: String, _ edit: (inout JSONObject) -> Void) {
            broken(name, "write-request", request, edit)
        }
        brokenRequest("write-request-with-sequence") { $0.set("sequence", .integer(1)) }
        brokenRequest("write-request-bad-outcome") { $0.set("outcome", .string("maybe")) }
        brokenRequest("write-request-no-binding") { $0.remove("deviceBinding") }
        brokenRequest("write-request-bits-as-ints") { $0.set("caseOpen", .integer(0)) }
        let export = JSONObject([
            ("chainIntact", .bool(true)), ("brokenAtSequence", .null),
            ("entries", .array([.object(entry.json), .object(failed.json)])),
        ])
        input("audit-export", "audit-export", export)
        input("audit-export-entries-only", "audit-export", JSONObject([("entries", .array([]))]))
        func brokenExport(_ name: String, _ edit: (inout JSONObject) -> Void) {
            broken(name, "audit-export", export, edit)
        }
        brokenExport("audit-export-broken-at-zero") { $0.set("brokenAtSequence", .integer(0)) }
        brokenExport("audit-export-broken-at-text") { $0.set("brokenAtSequence", .string("3")) }
        brokenExport("audit-export-unknown-field") { $0.set("note", .string("x")) }
        brokenExport("audit-export-bad-entry") {
            var bad = entry.json
            bad.set("outcome", .string("maybe"))
            $0.set("entries", .array([.object(bad)]))
        }
        brokenExport("audit-export-no-entries") { $0.remove("entries") }
        return samples
    }

    @Test func outsideValidatorAndDecoderAgree() throws {
        let scratch = ScratchDirectory()
        let samples = Self.corpus()
        #expect(samples.count >= 50)
        var arguments: [String] = []
        for sample in samples {
            let path = scratch.path(sample.name + ".json")
            try Data(sample.bytes).write(to: URL(fileURLWithPath: path))
            arguments.append("\(sample.schema)=\(path)")
        }
        let script = Self.repositoryRoot.appendingPathComponent("scripts/validate-records.py").path
        let result = runProcess("python3", [script] + arguments)
        try #require(
            result.status == 0,
            "validator failed (is python3-jsonschema installed? `make test` installs it): \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        try #require(lines.count == samples.count)
        for (sample, line) in zip(samples, lines) {
            let verdict = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let schemaAccepts = verdict["valid"] as! Bool
            let decoderAccepts: Bool
            do {
                try sample.decode(sample.bytes)
                decoderAccepts = true
            } catch {
                decoderAccepts = false
            }
            #expect(schemaAccepts == sample.shouldBeValid, "\(sample.name): schema says \(verdict["error"] ?? "valid")")
            #expect(decoderAccepts == sample.shouldBeValid, "\(sample.name): decoder disagrees")
        }
    }

    /// The descriptor is not a record kind, but it has a schema too: the decoder and the outside
    /// validator must agree on it as well.
    @Test func descriptorSchemaAgreesWithItsDecoder() throws {
        let scratch = ScratchDirectory()
        let good = LedgerDescriptor(
            ledgerId: "l", interface: "onym:component:app",
            appleAccount: .init(teamId: "ONYMTEAM01", apps: ["app.onym.a", "app.onym.b"]),
            interfaceRootKey: Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x0b))!.publicKey,
            authorityKeys: [
                "onym:component:x": [
                    .init(epoch: 1, key: Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x0c))!.publicKey)
                ]
            ])
        var samples: [(String, JSONObject, Bool)] = [("descriptor", good.json, true)]
        func broken(_ name: String, _ edit: (inout JSONObject) -> Void) {
            var copy = good.json
            edit(&copy)
            samples.append((name, copy, false))
        }
        broken("descriptor-version-1") { $0.set("formatVersion", .integer(1)) }
        broken("descriptor-version-3") { $0.set("formatVersion", .integer(3)) }
        broken("descriptor-unknown-field") { $0.set("note", .string("x")) }
        broken("descriptor-no-keys") { $0.remove("interfaceKeys") }
        broken("descriptor-duplicate-apps") {
            $0.set(
                "appleAccount",
                .object(
                    JSONObject([
                        ("teamId", .string("ONYMTEAM01")), ("apps", .array([.string("app.a"), .string("app.a")])),
                    ])))
        }
        for (name, teamId, app) in [
            ("descriptor-team-id-short", "ONYMTEAM1", "app.onym"),
            ("descriptor-team-id-lowercase", "onymteam01", "app.onym"),
            ("descriptor-app-one-part", "ONYMTEAM01", "app"), ("descriptor-app-empty-part", "ONYMTEAM01", "app..onym"),
            ("descriptor-app-underscore", "ONYMTEAM01", "app.on_ym"),
        ] {
            broken(name) {
                $0.set(
                    "appleAccount",
                    .object(JSONObject([("teamId", .string(teamId)), ("apps", .array([.string(app)]))])))
            }
        }
        broken("descriptor-ledger-id-zero-width") { $0.set("ledgerId", .string("l\u{200B}")) }
        broken("descriptor-ledger-id-space") { $0.set("ledgerId", .string("a b")) }
        broken("descriptor-epoch-zero") {
            $0.set(
                "interfaceKeys",
                .object(
                    JSONObject([
                        (
                            "authorities",
                            .object(
                                JSONObject([
                                    (
                                        "onym:component:x",
                                        .array([
                                            .object(
                                                JSONObject([
                                                    ("epoch", .integer(0)),
                                                    ("key", .string(good.interfaceRootKey!.onymKey)),
                                                ]))
                                        ])
                                    )
                                ]))
                        )
                    ])))
        }
        var arguments: [String] = []
        for (name, object, _) in samples {
            let path = scratch.path(name + ".json")
            try Data(CanonicalJSON.encode(object)).write(to: URL(fileURLWithPath: path))
            arguments.append("ledger-descriptor=\(path)")
        }
        let script = Self.repositoryRoot.appendingPathComponent("scripts/validate-records.py").path
        let result = runProcess("python3", [script] + arguments)
        try #require(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        try #require(lines.count == samples.count, "one verdict per sample: \(result.stdout)")
        for ((name, object, valid), line) in zip(samples, lines) {
            let verdict = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            #expect(verdict["valid"] as? Bool == valid, "\(name): schema")
            #expect(((try? LedgerDescriptor(json: object)) != nil) == valid, "\(name): decoder")
        }
    }

    @Test func shapesAreRecognizedWithoutAKind() throws {
        for sample in Self.corpus() where sample.shouldBeValid {
            let object = try CanonicalJSON.parse(sample.bytes)
            switch sample.schema {
            case "write-request": #expect(WriteRequest.matches(object), "\(sample.name)")
            case "audit-export": #expect(AuditExport.matches(object), "\(sample.name)")
            default: #expect(RecordKind.recognize(object)?.rawValue == sample.schema, "\(sample.name)")
            }
        }
    }
}
