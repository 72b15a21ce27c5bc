// libFuzzer entry point for the canonical-JSON parser (built by scripts/fuzz-parser, not by SwiftPM).
//
// Properties checked on every input: the parser never crashes, hangs or overflows the stack; and
// whatever it accepts re-encodes to canonical bytes that parse back to the same value and encode
// to themselves (encode ∘ parse is idempotent); and the parser recognizes the input as canonical exactly
// when it is its own encoding, with the encoder's member ends (the same signing bytes for every key).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let object = try? CanonicalJSON.parse(bytes) else {
        if (try? CanonicalJSON.parseNotingCanonicalForm(bytes)) != nil {
            fatalError("parseNotingCanonicalForm accepts what parse refuses")
        }
        return 0
    }
    let canonical = CanonicalJSON.encode(object)
    guard let reparsed = try? CanonicalJSON.parse(canonical) else {
        fatalError("canonical output does not parse")
    }
    guard reparsed == object else { fatalError("canonical output parses to a different value") }
    guard CanonicalJSON.encode(reparsed) == canonical else { fatalError("encoding is not idempotent") }
    guard CanonicalJSON.isCanonical(canonical) else { fatalError("canonical output is not canonical") }
    if CanonicalJSON.isCanonical(bytes) && bytes != canonical { fatalError("isCanonical accepted other bytes") }
    guard let noted = try? CanonicalJSON.parseNotingCanonicalForm(bytes) else {
        fatalError("parseNotingCanonicalForm refuses what parse accepts")
    }
    guard (noted.encoding != nil) == (bytes == canonical) else { fatalError("canonical form misrecognized") }
    if let recognized = noted.encoding {
        let encoded = CanonicalEncoding(of: object)
        for key in object.keys where recognized.omitting(key) != encoded.omitting(key) {
            fatalError("recognized member ends differ from the encoder's")
        }
    }
    return 0
}
