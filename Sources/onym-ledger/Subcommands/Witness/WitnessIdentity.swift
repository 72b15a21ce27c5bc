import LedgerFormat

/// A witness's `--key WITNESS_KEY --name NAME`, read one way by `cosign` and `witness serve`.
struct WitnessIdentity {
    let key: any CommitSigner
    let name: String

    init(parsing arguments: inout Arguments) throws(CLIError) {
        guard let key = try CommonOptions.signer(&arguments, option: "--key") else {
            throw .usage("--key WITNESS_KEY is required (the witness's ed25519 key)")
        }
        guard let name = try arguments.option("--name") else { throw .usage("--name NAME is required") }
        // signed-note: a key name is non-empty, with no Unicode spaces and no '+'.
        guard NoteKey.isValidName(name) else { throw .usage("--name is a name without spaces or '+'") }
        self.key = key
        self.name = name
    }
}
