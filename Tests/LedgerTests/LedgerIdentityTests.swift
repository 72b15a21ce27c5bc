import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier

/// A ledger's id names it to every auditor: the descriptor admits no look-alike ids, `init` and `verify` run
/// that one rule, and the auditor's state keeps one folder per exact id (docs/FORMAT.md, "Descriptor";
/// docs/VERIFY.md, "The auditor's state").
@Suite("Ledger ids: no look-alikes, one state folder per id")
struct LedgerIdentityTests {
    @Test(arguments: [
        "fixture\u{200B}-ledger", "fixture-ledger ", "ﬁxture-ledger", "fixture–ledger", "-fixture", "", "a b",
        "fixture+ledger", String(repeating: "a", count: 129),
    ])
    func lookAlikeIdsAreNotLedgerIds(_ id: String) {
        #expect(!LedgerDescriptor.isLedgerId(id))
    }

    @Test(arguments: ["fixture-ledger", "onym:component:onym-ios", "example.com/onym", "a", "A.b_c-d"])
    func plainIdsAreLedgerIds(_ id: String) {
        #expect(LedgerDescriptor.isLedgerId(id))
    }

    @Test func initRefusesWhatVerifyRefuses() {
        let scenario = LedgerScenario(initialize: false)
        let withId = { (id: String) in CLI.run(scenario.initArguments() + ["--ledger-id", id]) }
        let zeroWidth = withId("onym\u{200B}-ledger")
        #expect(zeroWidth.status == 64, "\(zeroWidth.stderr)")
        #expect(zeroWidth.stderr.contains("--ledger-id"))
        #expect(!FileManager.default.fileExists(atPath: scenario.ledger))
        var arguments = scenario.initArguments()
        arguments[arguments.firstIndex(of: "TEAM123456")!] = "team123456"
        #expect(CLI.run(arguments).status == 64)
    }

    /// Two ids never share a folder: `a:b` and `a_b` (and `a/b`) were one folder before.
    @Test func everyIdHasAFolderOfItsOwn() {
        let ids = ["a:b", "a_b", "a/b", "a.b", "a-b", "A:b", "a%3Ab", ".a", "_.a"]
        let names = ids.map(AuditorState.folderName)
        #expect(Set(names).count == ids.count, "\(names)")
        #expect(names.allSatisfy { !$0.contains("/") && $0 != "." && $0 != ".." && !$0.hasPrefix(".") })
        #expect(AuditorState.folderName("fixture-ledger") == "fixture-ledger")
        #expect(AuditorState.folderName("onym:component:x") == "onym%3Acomponent%3Ax")
    }

    /// A state an earlier version kept under the old folder name is adopted, so the remembered root of trust
    /// is not lost — but only when every history in that folder was remembered under exactly this id.
    @Test func aStateUnderTheEarlierFolderNameIsAdopted() throws {
        let scratch = ScratchDirectory()
        let root = scratch.path("state")
        let commit = ObjectID(hexString: String(repeating: "ab", count: 20))!
        func plant(_ id: String, remembering remembered: String) throws -> String {
            let folder = "\(root)/ledgers/\(AuditorState.legacyFolderName(id))/\(commit.hex)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(CanonicalJSON.encode(JSONObject([("ledgerId", .string(remembered))]))).write(
                to: URL(fileURLWithPath: folder + "/state.json"))
            return folder
        }
        // "x:y" and "x/y" shared the folder "x_y"; a folder holding "x/y"'s history is not "x:y"'s to adopt.
        _ = try plant("x:y", remembering: "x/y")
        AuditorState(root: root, ledgerId: "x:y", firstCommit: commit).adoptLegacyFolder()
        #expect(!FileManager.default.fileExists(atPath: "\(root)/ledgers/x%3Ay"))
        try FileManager.default.removeItem(atPath: "\(root)/ledgers/x_y")
        // Its own history is adopted, under the new name.
        _ = try plant("x:y", remembering: "x:y")
        let store = AuditorState(root: root, ledgerId: "x:y", firstCommit: commit)
        store.adoptLegacyFolder()
        #expect(FileManager.default.fileExists(atPath: store.folder + "/state.json"))
        #expect(!FileManager.default.fileExists(atPath: "\(root)/ledgers/x_y"))
    }
}
