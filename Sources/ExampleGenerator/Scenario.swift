import LedgerFormat

/// The parsed `ledger-example/scenario.txt`: actors, class terms and timed events.
struct Scenario {
    struct Vendor {
        var interface = ""
        var ledgerId = ""
        var team = ""
        var apps: [String] = []
    }

    struct AuthorityDecl {
        let name: String
        let seed: UInt8
        let component: String
        let appellate: String
    }

    struct ClassDecl {
        let authority: String
        let classId: String
        let response: String
        let decision: String
        let appeal: String
        let ban: String
        let effect: String
    }

    struct UserDecl {
        let name: String
        let seed: UInt8
        let device: String
        let app: String
    }

    struct Event {
        let time: Instant
        /// The line number, to keep story order among events at the same time.
        let line: Int
        let words: [String]
    }

    var vendor = Vendor()
    var signers: [(name: String, seed: UInt8)] = []
    var authorities: [AuthorityDecl] = []
    var classes: [ClassDecl] = []
    var users: [UserDecl] = []
    var events: [Event] = []

    struct ParseError: Error, CustomStringConvertible { let description: String }

    init(text: String) throws {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let words = raw.split(separator: " ").map(String.init)
            guard let first = words.first, !first.hasPrefix("#") else { continue }
            func option(_ name: String) throws -> String {
                guard let word = words.first(where: { $0.hasPrefix(name + "=") }) else {
                    throw ParseError(description: "line \(line): missing \(name)=")
                }
                return String(word.dropFirst(name.count + 1))
            }
            func seed() throws -> UInt8 {
                guard let value = UInt8(try option("seed"), radix: 16) else {
                    throw ParseError(description: "line \(line): bad seed")
                }
                return value
            }
            switch first {
            case "vendor":
                vendor = Vendor(
                    interface: words[1], ledgerId: try option("ledger"), team: try option("team"),
                    apps: try option("apps").split(separator: ",").map(String.init))
            case "signer":
                signers.append((words[1], try seed()))
            case "authority":
                authorities.append(
                    AuthorityDecl(
                        name: words[1], seed: try seed(), component: try option("component"),
                        appellate: try option("appellate")))
            case "class":
                classes.append(
                    ClassDecl(
                        authority: words[1], classId: words[2], response: try option("response"),
                        decision: try option("decision"), appeal: try option("appeal"), ban: try option("ban"),
                        effect: try option("effect")))
            case "user":
                users.append(
                    UserDecl(name: words[1], seed: try seed(), device: try option("device"), app: try option("app")))
            case "at":
                guard words.count >= 3, let time = Instant.parse(words[1]) else {
                    throw ParseError(description: "line \(line): expected 'at TIME EVENT …'")
                }
                events.append(Event(time: time, line: line, words: Array(words.dropFirst(2))))
            default:
                throw ParseError(description: "line \(line): unknown declaration '\(first)'")
            }
        }
    }
}
