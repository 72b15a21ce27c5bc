import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat
import LedgerStore
@testable import LedgerVerifier
@testable import LedgerWriter

/// Bounded work: each limit on git objects holds at the limit and refuses just past it,
/// before anything below is read.
@Suite("Hostile git objects: limits at and past their value")
struct HostileObjectTests {
    func policies(afterAdding name: String, _ subtree: (Surgeon) -> ObjectID) throws -> Set<String> {
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        var entries = surgeon.rootEntries()
        entries.append(("40000", name, subtree(surgeon)))
        surgeon.appendRootTree(Surgeon.treeBytes(entries.sorted { $0.name + "/" < $1.name + "/" }))
        let result = TamperCorpusTests.verify(ledger)
        #expect(result.status == 1)
        let findings = (result.report["findings"] as? [[String: Any]]) ?? []
        return Set(findings.compactMap { $0["policy"] as? String })
    }

    /// A chain of `levels` folders ending in a file.
    func chain(_ surgeon: Surgeon, levels: Int) -> ObjectID {
        var inner = surgeon.blob(Array("{}".utf8))
        var mode = "100644"
        for _ in 0..<levels {
            inner = try! surgeon.repository.writeRawTreeBytes(Surgeon.treeBytes([(mode, "d", inner)]))
            mode = "40000"
        }
        return inner
    }

    @Test func depthIsReadUpToTheLimitAndRefusedPastIt() throws {
        // The added folder sits at depth 1; `levels` folders below the root reach depth `levels`.
        let atLimit = try policies(afterAdding: "deep") { chain($0, levels: CommitLoader.maxTreeDepth) }
        #expect(!atLimit.contains(GitObjectPolicy.name))
        #expect(atLimit.contains(TreeWhitelistPolicy.name))  // off the whitelist, but read and judged
        let past = try policies(afterAdding: "deep") { chain($0, levels: CommitLoader.maxTreeDepth + 1) }
        #expect(past.contains(GitObjectPolicy.name))
    }

    /// An empty folder is reported by its path, at the root and below a new folder: a tree is empty exactly
    /// when its id is the empty tree's (`git hash-object -t tree /dev/null`), so the loader tells by the id.
    @Test func anEmptyFolderIsReportedByItsPath() throws {
        let stock = runProcess("git", ["hash-object", "-t", "tree", "/dev/null"])
        #expect(stock.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == ObjectID.emptyTree.hex)
        let scratch = ScratchDirectory()
        let ledger = TamperCorpusTests.copyOfGood(scratch)
        let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
        let empty = try surgeon.repository.writeRawTreeBytes([])
        #expect(empty == ObjectID.emptyTree)
        let outer = try surgeon.repository.writeRawTreeBytes(
            Surgeon.treeBytes([("100644", "a.json", surgeon.blob(Array("{}".utf8))), ("40000", "inner", empty)]))
        var entries = surgeon.rootEntries()
        entries.append(("40000", "empty", empty))
        entries.append(("40000", "outer", outer))
        surgeon.appendRootTree(Surgeon.treeBytes(entries.sorted { $0.name + "/" < $1.name + "/" }))
        let result = TamperCorpusTests.verify(ledger)
        #expect(result.status == 1)
        let emptyFolders = ((result.report["findings"] as? [[String: Any]]) ?? []).filter {
            $0["policy"] as? String == TreeWhitelistPolicy.name
                && ($0["reason"] as? String ?? "").contains("an empty folder")
        }
        let paths = Set(emptyFolders.compactMap { $0["path"] as? String })
        #expect(paths == ["empty", "outer/inner"], "\(emptyFolders)")
    }

    /// docs/FORMAT.md and docs/VERIFY.md state one depth limit, the code's, which the deepest path on the
    /// whitelist (`batches/<N[0..7]>/<N>/<kind>/<a>/<hex>.json`) reaches exactly.
    @Test func theDepthLimitIsTheDeepestWhitelistedPathsAndBothDocsSayIt() throws {
        func folders(_ path: String) -> Int { path.split(separator: "/").count - 1 }
        let record = LedgerLayout.recordPath(Mandate.self, ContentAddress(hashing: []), batch: 1)
        #expect(CommitLoader.maxTreeDepth == 5)
        #expect(folders(record) == CommitLoader.maxTreeDepth)
        #expect(folders(LedgerLayout.manifestSignaturePath(ContentAddress(hashing: []), batch: 1)) <= 5)
        #expect(folders(LedgerLayout.logEntryPath(1)) <= CommitLoader.maxTreeDepth)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for doc in ["docs/FORMAT.md", "docs/VERIFY.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(doc), encoding: .utf8)
                .replacingOccurrences(of: "\n  ", with: " ").replacingOccurrences(of: "\n", with: " ")
            let statesTheLimit = text.contains("at most 5 folders above its file in any path")
            let statesAnother = text.contains("4 folders deep") || text.contains("folders at most 5 deep")
            #expect(statesTheLimit && !statesAnother, "\(doc) states the depth limit as the code has it")
        }
    }

    @Test func treeSizeIsReadUpToTheLimitAndRefusedPastIt() throws {
        // Entries of 6 + 1 + 69 + 1 + 20 = 97 bytes: as many as fit in the limit, then one more.
        let perEntry = 97
        let fitting = CommitLoader.maxTreeBytes / perEntry
        func tree(_ surgeon: Surgeon, _ count: Int) -> ObjectID {
            let blob = surgeon.blob(Array("{}".utf8))
            let names = (0..<count).map { String(format: "%064x.json", $0) }
            return try! surgeon.repository.writeRawTreeBytes(Surgeon.treeBytes(names.map { ("100644", $0, blob) }))
        }
        #expect(fitting * perEntry <= CommitLoader.maxTreeBytes)
        let atLimit = try policies(afterAdding: "big") { tree($0, min(fitting, CommitLoader.maxTreeEntries)) }
        #expect(!atLimit.contains(GitObjectPolicy.name))
        let past = try policies(afterAdding: "big") { tree($0, fitting + 1) }
        #expect(past.contains(GitObjectPolicy.name))
    }

    /// A commit's size is read from its header before the commit is: one just under the limit is read,
    /// one just over (a 256 MiB message, scaled down) is refused unread.
    @Test func commitSizeIsReadUpToTheLimitAndRefusedPastIt() throws {
        func verify(messageBytes: Int) throws -> (status: Int32, policies: Set<String>, size: Int) {
            let scratch = ScratchDirectory()
            let ledger = TamperCorpusTests.copyOfGood(scratch)
            let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
            let tipTrailers = LedgerTrailers(message: surgeon.info(surgeon.tip).message)!
            // The log position only: a writes digest belongs to the batch that chained those writes.
            let trailers = LedgerTrailers(logSize: tipTrailers.logSize, logHead: tipTrailers.logHead)
            let message = "append: " + String(repeating: "x", count: messageBytes) + "\n\n" + trailers.text
            surgeon.append([], message: message)
            let size = try surgeon.repository.blobSize(surgeon.tip)
            let result = TamperCorpusTests.verify(ledger)
            let findings = (result.report["findings"] as? [[String: Any]]) ?? []
            return (result.status, Set(findings.compactMap { $0["policy"] as? String }), size)
        }
        let under = try verify(messageBytes: CommitChain.maxCommitBytes - 2_000)
        #expect(under.size <= CommitChain.maxCommitBytes)
        #expect(under.status == 0, "\(under.policies)")
        let over = try verify(messageBytes: CommitChain.maxCommitBytes + 1)
        #expect(over.size > CommitChain.maxCommitBytes)
        #expect(over.status == 1)
        #expect(over.policies == [RecordLimitsPolicy.name])
    }

    /// The entries one commit may change (a 2-million-file commit, scaled to the limit): a
    /// commit at exactly the limit is walked; one entry more and the walk stops there.
    @Test func entriesPerCommitAreWalkedUpToTheLimitAndNotPast() throws {
        func policies(extra: Int) throws -> Set<String> {
            let scratch = ScratchDirectory()
            let ledger = TamperCorpusTests.copyOfGood(scratch)
            let surgeon = try Surgeon(path: ledger, keys: [FixtureLedger.signer1, FixtureLedger.signer2])
            let blob = surgeon.blob(Array("{}".utf8))
            var root = surgeon.rootEntries()
            let folders = CommitLoader.maxFilesPerCommit / CommitLoader.maxTreeEntries  // 20 full folders
            // Entries walked: the new root's own entries, plus every entry of each new folder.
            let last = CommitLoader.maxTreeEntries - (root.count + folders) + extra
            for folder in 0..<folders {
                let count = folder == folders - 1 ? last : CommitLoader.maxTreeEntries
                let names = (0..<count).map { String(format: "%064x.json", $0) }
                let bytes = Surgeon.treeBytes(names.map { ("100644", $0, blob) })
                let tree = try surgeon.repository.writeRawTreeBytes(bytes)
                root.append(("40000", String(format: "bulk%02d", folder), tree))
            }
            surgeon.appendRootTree(Surgeon.treeBytes(root.sorted { $0.name + "/" < $1.name + "/" }))
            let result = TamperCorpusTests.verify(ledger)
            let findings = (result.report["findings"] as? [[String: Any]]) ?? []
            return Set(findings.compactMap { $0["policy"] as? String })
        }
        #expect(!(try policies(extra: 0)).contains(GitObjectPolicy.name))
        #expect(try policies(extra: 1).contains(GitObjectPolicy.name))
    }
}
