public import LedgerFormat

/// Which identities' mandates name each device binding ("who may accuse whom"): several are
/// legitimate — a new holder, a reinstall under a new identity — but never silent. Kept compactly: the
/// first identity of every binding in its ``BindingRecord``, and here every identity of the few bindings
/// several share.
public struct BindingIdentities: Sendable, Equatable {
    /// binding → every identity (with its earliest acceptance), for bindings several identities share.
    public private(set) var shared: [WireString: [Identity]] = [:]

    public struct Identity: Sendable, Equatable {
        public let user: WireString
        public let acceptedAt: Instant
    }

    public init() {}

    init(shared: [WireString: [Identity]]) {
        self.shared = shared
    }

    /// Records `mandate`'s identity on its binding, whose first identity is `first`.
    public mutating func add(_ mandate: Mandate, first: inout Identity?) {
        let identity = Identity(user: mandate.userKey, acceptedAt: mandate.acceptedAt)
        let binding = mandate.deviceBinding
        guard let owner = first else {
            first = identity
            return
        }
        var all = shared[binding] ?? [owner]
        if let index = all.firstIndex(where: { $0.user == identity.user }) {
            if identity.acceptedAt < all[index].acceptedAt { all[index] = identity }
        } else {
            all.append(identity)
        }
        if owner.user == identity.user && all.count == 1 {
            if identity.acceptedAt < owner.acceptedAt { first = identity }
            return
        }
        shared[binding] = all.sorted { ($0.acceptedAt, $0.user) < ($1.acceptedAt, $1.user) }
    }
}
