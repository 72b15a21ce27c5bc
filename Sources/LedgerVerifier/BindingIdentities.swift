public import LedgerFormat

/// Which identities' mandates name each device binding (issue 12, "who may accuse whom"): several are
/// legitimate — a new holder, a reinstall under a new identity — but never silent. Kept compactly: the
/// first identity of every binding, and every identity of the few bindings several share.
public struct BindingIdentities: Sendable, Equatable {
    /// binding → the first identity named and its acceptance.
    private(set) var first: [String: Identity] = [:]
    /// binding → every identity (with its earliest acceptance), for bindings several identities share.
    public private(set) var shared: [String: [Identity]] = [:]

    public struct Identity: Sendable, Equatable {
        public let user: String
        public let acceptedAt: Instant
    }

    public init() {}

    public mutating func add(_ mandate: Mandate) {
        let identity = Identity(user: mandate.userKey, acceptedAt: mandate.acceptedAt)
        let binding = mandate.deviceBinding
        guard let owner = first[binding] else {
            first[binding] = identity
            return
        }
        var all = shared[binding] ?? [owner]
        if let index = all.firstIndex(where: { $0.user == identity.user }) {
            if identity.acceptedAt < all[index].acceptedAt { all[index] = identity }
        } else {
            all.append(identity)
        }
        if owner.user == identity.user && all.count == 1 {
            if identity.acceptedAt < owner.acceptedAt { first[binding] = identity }
            return
        }
        shared[binding] = all.sorted { ($0.acceptedAt, $0.user) < ($1.acceptedAt, $1.user) }
    }

    // MARK: - In the auditor's checkpoint

    var json: JSONObject {
        JSONObject([
            (
                "first",
                .object(
                    JSONObject(
                        first.sorted { $0.key < $1.key }.map {
                            ($0.key, .array([.string($0.value.user), .string($0.value.acceptedAt.rfc3339)]))
                        }))
            ),
            (
                "shared",
                .object(
                    JSONObject(
                        shared.sorted { $0.key < $1.key }.map {
                            (
                                $0.key,
                                .array($0.value.map { .array([.string($0.user), .string($0.acceptedAt.rfc3339)]) })
                            )
                        }))
            ),
        ])
    }

    init(json: JSONObject) {
        func identity(_ value: JSONValue) -> Identity? {
            guard case .array(let pair) = value, pair.count == 2, let user = pair[0].stringValue,
                let text = pair[1].stringValue, let at = Instant.parse(text)
            else { return nil }
            return Identity(user: user, acceptedAt: at)
        }
        if case .object(let map)? = json["first"] {
            for member in map.members { if let found = identity(member.value) { first[member.key] = found } }
        }
        if case .object(let map)? = json["shared"] {
            for member in map.members {
                if case .array(let list) = member.value { shared[member.key] = list.compactMap(identity) }
            }
        }
    }
}
