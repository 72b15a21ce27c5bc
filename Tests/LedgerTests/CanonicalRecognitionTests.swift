import Foundation
import Testing

@testable import LedgerFormat

/// The parser's recognition of canonical input against the rule's own test — encode what was parsed and
/// compare — on every vector and on many texts written the ways JSON allows: whitespace or none, keys in
/// or out of order, each character raw or escaped in any valid form, zero as `-0`. The serializer here is
/// the test's own, written from RFC 8259's grammar, not from the encoder.
@Suite("Canonical form recognized while parsing")
struct CanonicalRecognitionTests {
    /// The parser says "canonical" exactly when encoding the parsed object gives the input back, and then
    /// its encoding is the encoder's: the same bytes, and the same signing bytes for every key left out.
    static func expectAgreement(_ input: [UInt8], _ note: @autoclosure () -> String) {
        guard let parsed = try? CanonicalJSON.parseNotingCanonicalForm(input) else {
            #expect((try? CanonicalJSON.parse(input)) == nil, "\(note()): one parse refuses, the other not")
            return
        }
        let encoded = CanonicalEncoding(of: parsed.object)
        #expect((parsed.encoding != nil) == encoded.isIdentical(to: input), "\(note())")
        guard let recognized = parsed.encoding else { return }
        #expect(recognized.bytes == encoded.bytes, "\(note())")
        for key in parsed.object.keys + ["absent"] {
            #expect(recognized.omitting(key) == encoded.omitting(key), "\(note()): without \(key)")
        }
    }

    /// Every vector's input agrees with the encoder's verdict, and every expected output — canonical by
    /// definition — is recognized.
    @Test func everyVectorIsRecognizedAsTheEncoderJudgesIt() throws {
        let folder = Vectors.url("canonical-json")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let inputs = names.filter { $0.hasSuffix(".input") }
        let outputs = names.filter { $0.hasSuffix(".expected") }
        #expect(inputs.count > 50 && outputs.count > 30)
        for name in inputs + outputs {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            Self.expectAgreement(bytes, name)
            if name.hasSuffix(".expected") {
                #expect((try? CanonicalJSON.parseNotingCanonicalForm(bytes))?.encoding != nil, "\(name)")
            }
        }
    }

    @Test func textsWrittenEveryWayJSONAllowsAreRecognizedAsTheEncoderJudgesThem() {
        var random = SeededGenerator(state: 0xCA0_0C1C)
        var recognized = 0
        let rounds = 4_000
        for round in 0..<rounds {
            let value = Self.randomObject(depth: 0, using: &random)
            // A quarter written plainly (sorted, compact, escapes as the grammar's shortest), the rest with
            // each choice made at random.
            let plain = round % 4 == 0
            var writer = AnyWayWriter(random: random, plain: plain)
            writer.write(.object(value))
            random = writer.random
            let text = writer.output
            // The writer writes valid JSON, and its plain form is the canonical one.
            let parsed = try? CanonicalJSON.parseNotingCanonicalForm(text)
            #expect(parsed != nil, "\(String(decoding: text, as: UTF8.self))")
            if plain { #expect(parsed?.encoding != nil && text == CanonicalJSON.encode(value)) }
            Self.expectAgreement(text, String(decoding: text, as: UTF8.self))
            if parsed?.encoding != nil { recognized += 1 }
        }
        // Both answers are given often.
        #expect(recognized > rounds / 5 && recognized < rounds * 4 / 5, "\(recognized) of \(rounds) recognized")
    }

    static let keyPool = ["a", "b", "ab", "B", "é", "z", "\u{7F}", "k\"q", "s/t", "😀", "", "aa", "0", "mandateVersion"]
    static let characterPool: [Character] = [
        "a", "Z", "0", "/", "\"", "\\", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}",
        "é", "€", "😀", "\u{2028}", " ",
    ]

    static func randomObject(depth: Int, using random: inout SeededGenerator) -> JSONObject {
        var pairs: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            pairs[keyPool.randomElement(using: &random)!] = randomValue(depth: depth + 1, using: &random)
        }
        return JSONObject(pairs.map { ($0.key, $0.value) })
    }

    static func randomValue(depth: Int, using random: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer([0, 1, -1, 42, -907, 9_007_199_254_740_991].randomElement(using: &random)!)
        case 3, 4:
            let count = Int.random(in: 0...6, using: &random)
            return .string(String((0..<count).map { _ in characterPool.randomElement(using: &random)! }))
        case 5:
            return .array(
                (0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default: return .object(randomObject(depth: depth, using: &random))
        }
    }
}

/// Writes a JSON value in any of the ways RFC 8259 allows, each choice at random (or, `plain`, the
/// compact form with keys sorted and only the escapes the grammar requires, the short ones where they exist).
struct AnyWayWriter {
    var random: SeededGenerator
    let plain: Bool
    var output: [UInt8] = []

    private mutating func chance(_ percent: Int) -> Bool { !plain && Int.random(in: 0..<100, using: &random) < percent }

    private mutating func space() {
        guard chance(3) else { return }
        output += Array([" ", "\n", "\t", "\r"].randomElement(using: &random)!.utf8)
    }

    mutating func write(_ value: JSONValue) {
        space()
        switch value {
        case .null: output += Array("null".utf8)
        case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
        case .integer(let number): output += Array((number == 0 && chance(30) ? "-0" : String(number)).utf8)
        case .string(let text): write(text)
        case .array(let elements):
            output += Array("[".utf8)
            var separator: [UInt8] = []
            for element in elements {
                output += separator
                write(element)
                separator = Array(",".utf8)
            }
            space()
            output += Array("]".utf8)
        case .object(let object):
            var members = object.members
            if chance(15) { members.shuffle(using: &random) }
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                space()
                write(member.key)
                space()
                output.append(UInt8(ascii: ":"))
                write(member.value)
            }
            space()
            output.append(UInt8(ascii: "}"))
        }
        space()
    }

    private mutating func write(_ text: String) {
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            let short: [UInt32: String] = [
                0x22: "\\\"", 0x5C: "\\\\", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r",
            ]
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if !mustEscape, !chance(8) {
                output += Array(String(scalar).utf8)
            } else if let form = short[scalar.value], !chance(25) {
                output += Array(form.utf8)
            } else if scalar == "/", chance(50) {
                output += Array("\\/".utf8)
            } else {
                let upper = chance(50)
                func unit(_ value: UInt32) -> String {
                    let digits = String(value, radix: 16)
                    let padded = String(repeating: "0", count: 4 - digits.count) + digits
                    return "\\u" + (upper ? padded.uppercased() : padded)
                }
                if scalar.value > 0xFFFF {
                    let offset = scalar.value - 0x10000
                    output += Array((unit(0xD800 + (offset >> 10)) + unit(0xDC00 + (offset & 0x3FF))).utf8)
                } else {
                    output += Array(unit(scalar.value).utf8)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
