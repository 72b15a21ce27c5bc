import Foundation
import Testing

import LedgerFormat
import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// `publish DIR` into a folder others can write to (a web root): a symbolic link, a planted temporary name or
/// a FIFO inside DIR is refused (exit 64, the path named), nothing lands outside DIR and nothing waits
/// (``OpenFolder``, `publish --help`).
@Suite("Publish: a hostile folder is refused, never written through")
struct PublishHostileFolderTests {
    /// A fixture ledger with a transparency log, its trust file, and a place outside the publication folder.
    struct Setup: ~Copyable {
        let scratch = ScratchDirectory()
        let ledger: String
        let trust: String
        let site: String
        let outside: String

        /// Set-up failures are the fixture's bugs, not findings: they stop the test.
        init() {
            ledger = scratch.path("fixture.git")
            trust = scratch.path("fixture.pub")
            site = scratch.path("site")
            outside = scratch.path("outside")
            _ = try! FixtureLedger.build(at: ledger)
            try! (OpenSSHKey.publicKeyLine(FixtureLedger.signer1.publicKey) + "\n").write(
                toFile: trust, atomically: true, encoding: .utf8)
            try! FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
            try! FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        }

        func publish() -> (status: Int32, stdout: String, stderr: String) {
            CLI.run(["publish", ledger, site, "--trust", trust, "--state", scratch.path("state")])
        }

        /// Every file below `outside`, as paths relative to it.
        func filesOutside() -> [String] {
            (FileManager.default.subpaths(atPath: outside) ?? []).sorted()
        }
    }

    @Test(arguments: ["tile", "tile/entries", "tile/0"])
    func aLinkedFolderInsideDIRIsRefused(_ linked: String) throws {
        let setup = Setup()
        let parent = (setup.site + "/" + linked as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: setup.site + "/" + linked, withDestinationPath: setup.outside)
        let published = setup.publish()
        #expect(published.status == 64, "\(published.stderr)")
        #expect(published.stderr.contains("\(setup.site)/\(linked): is a symbolic link"), "\(published.stderr)")
        #expect(setup.filesOutside().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: setup.site + "/checkpoint"))
    }

    @Test func aLinkedCheckpointIsRefusedAndItsTargetKept() throws {
        let setup = Setup()
        let victim = setup.outside + "/victim"
        try "keep me\n".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: setup.site + "/checkpoint", withDestinationPath: victim)
        let published = setup.publish()
        #expect(published.status == 64, "\(published.stderr)")
        #expect(published.stderr.contains("\(setup.site)/checkpoint: is a symbolic link"))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        #expect(setup.filesOutside() == ["victim"])
    }

    /// Temporary names were `<name>.tmp-<pid>`, opened with create and truncate: links planted under the
    /// next process ids sent the checkpoint into a file outside DIR. Now a temporary file is created
    /// exclusively under a random name, and a planted name is never opened.
    @Test func plantedTemporaryNamesAreNeverWrittenThrough() throws {
        let setup = Setup()
        let victim = setup.outside + "/victim"
        try "keep me\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let lastPID = Int(
            try String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines))!
        for pid in lastPID + 1...lastPID + 3_000 {
            try FileManager.default.createSymbolicLink(
                atPath: setup.site + "/checkpoint.tmp-\(pid)", withDestinationPath: victim)
        }
        let published = setup.publish()
        #expect(published.status == 0, "\(published.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: setup.site + "/checkpoint")
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: setup.site + "/checkpoint", encoding: .utf8).contains("\n\n— "))
    }

    /// A FIFO where publish reads is refused without waiting for a writer.
    @Test(arguments: ["checkpoint", "tile/0/000.p/FIFO"])
    func aFIFOIsRefusedWithoutWaiting(_ place: String) throws {
        let setup = Setup()
        var path = setup.site + "/" + place
        if place.hasSuffix("/FIFO") {
            // The fixture's first level-0 tile, as publish names it.
            #expect(setup.publish().status == 0)
            let folder = (path as NSString).deletingLastPathComponent
            let tile = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
            path = folder + "/" + tile
            try FileManager.default.removeItem(atPath: path)
        }
        #expect(mkfifo(path, 0o644) == 0)
        let published = setup.publish()
        #expect(published.status == 64, "\(published.stderr)")
        #expect(published.stderr.contains("\(path): is a FIFO"), "\(published.stderr)")
    }
}
