import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerFormat

/// A larger backlog, on request (`ONYM_FOLLOW_SCALE_DEVICES=2000 swift test --filter FollowScaleTests`): the
/// first pass imports it in bounded batches, the second finds nothing new; both times are printed for
/// BENCHMARKS.md (nothing is asserted about them).
@Suite("follow: a larger backlog (on request)")
struct FollowScaleTests {
    @Test func aLargerBacklogImportsOnceThenNothing() throws {
        guard let devices = Int(ProcessInfo.processInfo.environment["ONYM_FOLLOW_SCALE_DEVICES"] ?? "") else { return }
        let setup = FollowTests.Setup(devices: devices)
        let clock = ContinuousClock()
        var first: (status: Int32, stdout: String, stderr: String) = (0, "", "")
        let importing = clock.measure { first = setup.follow() }
        let imported = try FollowTests.pass(first)
        var second: (status: Int32, stdout: String, stderr: String) = (0, "", "")
        let checking = clock.measure { second = setup.follow() }
        #expect(FollowTests.commits(try FollowTests.pass(second)) == 0)
        #expect(imported["logHead"] == .string(setup.backend.script.head))
        print(
            "follow-scale: \(devices) devices, \(FollowTests.commits(imported)) batches; first pass \(importing), "
                + "second pass (nothing new) \(checking)")
    }
}
