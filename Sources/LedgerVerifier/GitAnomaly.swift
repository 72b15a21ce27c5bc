/// A git object the verifier refused to interpret: where, and why.
public struct GitAnomaly: Sendable, Equatable {
    public let path: String
    public let reason: String
}
