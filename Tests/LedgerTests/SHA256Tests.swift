import LedgerFormat
import Testing

/// SHA-256 and SHA-512 against FIPS 180-2's examples, on one thread and on many at once (every hash makes
/// an OpenSSL context of its own, `EVP_Digest`, from a digest fetched once for the process).
@Suite("SHA-256 and SHA-512")
struct SHA256Tests {
    static let sha256Examples: [(String, String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]
    static let sha512Abc =
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"

    @Test func theStandardsExamples() {
        for (message, digest) in Self.sha256Examples {
            #expect(SHA256.hash(Array(message.utf8)).hex == digest, "\(message.prefix(8))…")
            // Interleaved with SHA-512, as a signature check interleaves them.
            #expect(Hex.encode(SHA256.sha512Digest(Array("abc".utf8))) == Self.sha512Abc)
        }
        // A collection without contiguous storage is hashed the same.
        #expect(SHA256.hash("abc".utf8.lazy.map { $0 }).hex == Self.sha256Examples[1].1)
    }

    @Test func manyThreadsAtOnceGiveWhatOneGives() {
        let inputs = (0..<4_000).map {
            Array("record \($0) ".utf8) + [UInt8](repeating: UInt8($0 % 251), count: $0 % 700)
        }
        let expected = inputs.map { (SHA256.hash($0).hex, SHA256.sha512Digest($0)) }
        let results = parallelMap(inputs) { input in (SHA256.hash(input).hex, SHA256.sha512Digest(input)) }
        #expect(results.map(\.0) == expected.map(\.0))
        #expect(results.map(\.1) == expected.map(\.1))
    }
}
