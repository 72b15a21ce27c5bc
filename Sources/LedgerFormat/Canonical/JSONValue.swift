/// A parsed JSON value of the ledger's strict dialect: integers only, objects with unique keys.
///
/// Strings compare and hash by their UTF-8 bytes, never by Swift's Unicode canonical equivalence:
/// two keys that differ in bytes are different keys, as they are to the reference's serde_json.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.string(let a), .string(let b)): return a.hasSameBytes(as: b)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }
}

extension JSONValue {
    /// The name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }
}

/// A JSON object whose members are kept sorted by the UTF-8 bytes of their keys.
///
/// That order is the canonical order (reference §1.1: serde_json's `BTreeMap<String, _>` compares
/// Rust strings bytewise), so encoding needs no sort and lookups are binary searches.
public struct JSONObject: Sendable, Equatable {
    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: JSONValue

        public static func == (lhs: Member, rhs: Member) -> Bool {
            lhs.key.hasSameBytes(as: rhs.key) && lhs.value == rhs.value
        }
    }

    /// Members in ascending UTF-8 byte order of their keys; keys are unique.
    public private(set) var members: [Member]

    public init() { members = [] }

    /// Builds an object from key/value pairs.
    /// - Precondition: keys are unique. (Programmer input; parsed input goes through the parser.)
    public init(_ pairs: [(String, JSONValue)]) {
        // One sort, not one insertion per pair: objects built from dictionaries hold 10^5 keys (a replay
        // snapshot's bindings), where sorted insertion would move the array each time.
        let sorted = pairs.sorted { $0.0.utf8Precedes($1.0) }
        for index in sorted.indices.dropFirst() {
            precondition(
                sorted[index - 1].0.utf8Precedes(sorted[index].0),
                "duplicate key \(sorted[index].0) in JSONObject literal")
        }
        members = sorted.map { Member(key: $0.0, value: $0.1) }
    }

    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        guard case .found(let index) = search(key) else { return nil }
        return members[index].value
    }

    /// Inserts a member; returns false (and changes nothing) when the key is already present.
    @discardableResult
    public mutating func insert(_ key: String, _ value: JSONValue) -> Bool {
        switch search(key) {
        case .found: return false
        case .insertAt(let index):
            members.insert(Member(key: key, value: value), at: index)
            return true
        }
    }

    /// Sets or replaces a member.
    public mutating func set(_ key: String, _ value: JSONValue) {
        switch search(key) {
        case .found(let index): members[index] = Member(key: key, value: value)
        case .insertAt(let index): members.insert(Member(key: key, value: value), at: index)
        }
    }

    /// Removes the member named `key`, if present, and returns its value.
    @discardableResult
    public mutating func remove(_ key: String) -> JSONValue? {
        guard case .found(let index) = search(key) else { return nil }
        return members.remove(at: index).value
    }

    /// Appends a member known to sort after every existing key; used by the parser's fast path.
    /// Returns false when that is not the case, so the caller falls back to ``insert(_:_:)``.
    mutating func appendIfGreatest(_ key: String, _ value: JSONValue) -> Bool {
        if let last = members.last, !last.key.utf8Precedes(key) { return false }
        members.append(Member(key: key, value: value))
        return true
    }

    private enum SearchResult { case found(Int), insertAt(Int) }

    private func search(_ key: String) -> SearchResult {
        var low = 0
        var high = members.count
        while low < high {
            let mid = (low + high) / 2
            let order = members[mid].key.utf8Compare(key)
            if order < 0 {
                low = mid + 1
            } else if order > 0 {
                high = mid
            } else {
                return .found(mid)
            }
        }
        return .insertAt(low)
    }
}
