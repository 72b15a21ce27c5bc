/// Renders JSON with two-space indentation and a trailing newline — the way published manifests look,
/// and how `textconv` shows a record to a reviewer — so fixtures exercise "exact bytes, not canonical form".
/// (Rendering only: every stored file is canonical JSON, `CanonicalJSON`.)
public enum PrettyJSON {
    public static func render(_ value: JSONValue) -> [UInt8] {
        var out = ""
        write(value, indent: 0, into: &out)
        out += "\n"
        return Array(out.utf8)
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch value {
        case .object(let object) where object.count > 0:
            out += "{\n"
            for (index, member) in object.members.enumerated() {
                out += pad + String(decoding: CanonicalJSON.encode(JSONValue.string(member.key)), as: UTF8.self) + ": "
                write(member.value, indent: indent + 1, into: &out)
                out += index + 1 < object.count ? ",\n" : "\n"
            }
            out += closePad + "}"
        case .array(let elements) where !elements.isEmpty:
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += pad
                write(element, indent: indent + 1, into: &out)
                out += index + 1 < elements.count ? ",\n" : "\n"
            }
            out += closePad + "]"
        default:
            out += String(decoding: CanonicalJSON.encode(value), as: UTF8.self)
        }
    }
}
