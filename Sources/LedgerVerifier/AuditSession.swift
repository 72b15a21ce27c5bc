import LedgerFormat
import LedgerStore

/// One `verify` run's dealings with the auditor's state (docs/VERIFY.md, "The auditor's state"):
/// which root of trust applies, where the run may resume, which rewrites still stand, and what is
/// remembered afterwards. Nothing here is read from the repository as trust.
struct AuditSession {
    let repository: Repository
    let options: Verifier.Options
    let store: AuditorState?
    private(set) var remembered: AuditorState.Remembered?
    let trustRoot: TrustRoot
    let trustFingerprints: [String]
    /// Evidence files named by this run's findings.
    private(set) var evidence: [String] = []
    /// The journal's `forget` event, written only when the run it starts is authentic: a `--forget` whose run
    /// is refused changes nothing and so records nothing.
    private var pendingForget: JSONObject?
    var folder: String? { store?.folder }

    /// The ledger id the tip's descriptor names ("unnamed" when it names none): whose state is used.
    static func ledgerId(repository: Repository, tip: ObjectID) -> String {
        (try? repository.blob(at: LedgerLayout.descriptorPath, inCommit: tip, limit: Limits.maxRecordBytes))
            .flatMap { try? LedgerDescriptor(json: try CanonicalJSON.parse($0)).ledgerId } ?? "unnamed"
    }

    init(repository: Repository, ledgerId: String, firstCommit: ObjectID, options: Verifier.Options)
        throws(Verifier.InputError)
    {
        self.repository = repository
        self.options = options
        store = options.stateRoot.map { AuditorState(root: $0, ledgerId: ledgerId, firstCommit: firstCommit) }
        store?.adoptLegacyFolder()
        do {
            remembered = try store?.load()
        } catch {
            throw Verifier.InputError(kind: .unreadable, description: error.description)
        }
        let given = options.trustRoot.map(Self.fingerprints)
        if let given, let known = remembered?.trust, given != known, !options.forget {
            throw Verifier.InputError(
                kind: .refused,
                description: """
                    --trust \(given.joined(separator: ",")) is not the root of trust remembered for this ledger \
                    (\(known.joined(separator: ","))); nothing was checked. Run with --forget to replace the \
                    remembered root (the change is recorded in \(store!.folder)/journal.jsonl)
                    """)
        }
        guard let trust = options.trustRoot ?? remembered.map({ TrustRoot(fingerprints: $0.trust) }) else {
            throw Verifier.InputError(
                kind: .noTrustRoot,
                description: """
                    no root of trust: pin one with --trust (an ssh-ed25519 public key, an allowed-signers file, \
                    or a SHA256: fingerprint of the key that signed the ledger's first commit)
                    """)
        }
        trustRoot = trust
        trustFingerprints = Self.fingerprints(trust)
        if options.forget { acknowledge() }
    }

    static func fingerprints(_ root: TrustRoot) -> [String] {
        (root.keys.map { OpenSSHKey.fingerprint($0) } + root.fingerprints).sorted()
    }

    /// The remembered verified tip, when the trust in force is the one it was verified under.
    var rememberedCheckpoint: Checkpoint? {
        guard let remembered, remembered.trust == trustFingerprints else { return nil }
        return remembered.checkpoint
    }

    // MARK: - Findings that stand until acknowledged

    /// Rewrites reported before and histories of the same ledger id verified from another first
    /// commit: reported on every run until `--forget`.
    func standingFindings(tip: ObjectID) -> [PolicyFailure] {
        guard let store else { return [] }
        var findings = (remembered?.rewrites ?? []).map { rewrite in
            PolicyFailure(
                policy: HistoryPolicy.name, commit: rewrite.seenTip,
                reason: """
                    history was rewritten: \(rewrite.seenTip.hex) (seen \(rewrite.detectedAt.rfc3339)) does not \
                    descend from the verified tip \(rewrite.rememberedTip.hex); evidence: \
                    \(rewrite.evidence.joined(separator: ", ")); 'verify --forget' acknowledges it
                    """)
        }
        let acknowledged = Set(remembered?.acknowledged ?? [])
        for other in store.otherHistories() where !acknowledged.contains(other.firstCommit.hex) {
            guard let tip = (try? other.state.load())??.checkpoint?.tip else { continue }
            findings.append(
                PolicyFailure(
                    policy: HistoryPolicy.name, commit: tip,
                    reason: """
                        history was rewritten from its first commit: the ledger \(store.ledgerId) was verified here \
                        from first commit \(other.firstCommit.hex) up to \(tip.hex) (state: \(other.state.folder)), \
                        and now starts from \(store.firstCommit.hex); 'verify --forget' acknowledges it
                        """))
        }
        return findings
    }

    /// Records a tip that does not descend from the remembered one: the journal entry, the evidence
    /// files (both signed commits, and a git bundle of the disowned history while the repository still
    /// holds it) and the standing finding.
    mutating func recordRewrite(of rememberedTip: ObjectID, seen tip: ObjectID) -> PolicyFailure? {
        guard let store else {
            return PolicyFailure(
                policy: HistoryPolicy.name, commit: tip,
                reason: "the tip does not descend from the verified tip \(rememberedTip.hex): history was rewritten")
        }
        if remembered?.rewrites.contains(where: { $0.seenTip == tip && $0.rememberedTip == rememberedTip }) == true {
            return nil  // already standing
        }
        var files: [String] = []
        if let bytes = rememberedCommitBytes(rememberedTip) ?? (try? repository.rawCommit(rememberedTip)),
            let path = try? store.saveEvidence(bytes, name: "\(rememberedTip.hex).commit")
        {
            files.append(path)
        }
        if let bytes = try? repository.rawCommit(tip),
            let path = try? store.saveEvidence(bytes, name: "\(tip.hex).commit")
        {
            files.append(path)
        }
        // The disowned history still in the repository, from where the two histories part (all of it
        // when they share nothing).
        if (try? repository.contains(rememberedTip)) == true,
            let bundle = try? repository.bundle(
                tip: rememberedTip, excluding: (try? repository.mergeBase(rememberedTip, tip)) ?? nil,
                refName: "refs/heads/disowned-\(rememberedTip.short)"),
            let path = try? store.saveEvidence(bundle, name: "\(rememberedTip.hex).bundle")
        {
            files.append(path)
        }
        let rewrite = AuditorState.Rewrite(
            detectedAt: options.now, rememberedTip: rememberedTip, seenTip: tip, evidence: files)
        remembered?.rewrites.append(rewrite)
        try? store.journal(
            JSONObject([
                ("event", .string("rewrite")), ("at", .string(options.now.rfc3339)),
                ("rememberedTip", .string(rememberedTip.hex)), ("seenTip", .string(tip.hex)),
                ("evidence", .array(files.map { .string($0) })),
            ]))
        if let remembered { try? store.save(remembered) }
        evidence += files
        return PolicyFailure(
            policy: HistoryPolicy.name, commit: tip,
            reason: """
                history was rewritten: the tip \(tip.hex) does not descend from the verified tip \
                \(rememberedTip.hex); evidence: \(files.joined(separator: ", ")); 'verify --forget' acknowledges it
                """)
    }

    /// The conduct findings the remembered checkpoint holds in commits up to and including `commit`: a run
    /// that starts after `commit` reports them without checking those commits again.
    func rememberedConductFindings(through commit: ObjectID, in chain: CommitChain) -> [PolicyFailure] {
        guard let findings = rememberedCheckpoint?.conductFindings, let last = chain.count(through: commit) else {
            return []
        }
        return findings.filter { finding in
            guard let at = finding.commit else { return true }
            return chain.count(through: at).map { $0 <= last } ?? false
        }
    }

    // MARK: - --since

    /// `--since C` is honoured only from a commit the remembered state holds (C is the remembered tip
    /// or an ancestor of it: verified before), or one the given root of trust vouches for: C itself carries a
    /// valid signature by a key the root admits, and that key is on C's `keys/allowed_signers` (docs/VERIFY.md,
    /// rule 2). An unsigned commit, or one signed by another key, vouches for nothing — whatever its
    /// allowed signers say.
    func admitSince(_ since: ObjectID) throws(Verifier.InputError) {
        if let checkpoint = rememberedCheckpoint, (try? repository.isDescendant(checkpoint.tip, of: since)) == true {
            return
        }
        if options.trustRoot != nil, let signer = validSigner(of: since), trustRoot.admits(signer),
            let bytes = try? repository.blob(at: LedgerLayout.allowedSignersPath, inCommit: since),
            let signers = try? AllowedSigners(text: String(decoding: bytes, as: UTF8.self)),
            signers.keys.contains(signer)
        {
            return
        }
        throw Verifier.InputError(
            kind: .refused,
            description: """
                --since \(since.hex): the remembered state does not hold this commit, and it is not signed by the \
                root of trust (\(trustFingerprints.joined(separator: ","))) as one of its allowed signers; nothing \
                was checked
                """)
    }

    /// The key whose valid SSHSIG (namespace `git`) the commit carries, if exactly one well-formed one does.
    private func validSigner(of commit: ObjectID) -> Ed25519.PublicKey? {
        guard let raw = try? repository.rawCommit(commit, limit: CommitChain.maxCommitBytes),
            case .signed(let text, let signedData) = CommitSignatureSplit.split(raw),
            case .parsed(let signature, _, true) = CommitLoader.parseSignature(text, signedData: signedData)
        else { return nil }
        return signature.publicKey
    }

    // MARK: - Remembering

    /// After an authentic run: journal the tip (with its signed commit object) and remember it as the
    /// verified tip — unless a rewrite stands, which keeps the remembered tip until `--forget`.
    mutating func remember(_ checkpoint: Checkpoint, compliant: Bool) throws(Verifier.InputError) {
        guard let store else { return }
        var state = remembered ?? AuditorState.Remembered(trust: trustFingerprints)
        state.trust = trustFingerprints
        // The side files were loaded for this very tip: nothing new was verified, so they stand as they are.
        let sideFilesCurrent =
            state.checkpoint.map {
                $0.tip == checkpoint.tip && $0.records != nil && $0.maps != nil && $0.conductFindings != nil
            } ?? false
        do {
            if let pendingForget {
                try store.journal(pendingForget)
                self.pendingForget = nil
            }
            if state.checkpoint?.tip != checkpoint.tip {
                var event = JSONObject([
                    ("event", .string("verified")), ("at", .string(options.now.rfc3339)),
                    ("tip", .string(checkpoint.tip.hex)), ("compliant", .bool(compliant)),
                    ("trust", .array(trustFingerprints.map { .string($0) })),
                ])
                if let bytes = try? repository.rawCommit(checkpoint.tip) {
                    event.set("commit", .string(Base64.encode(bytes)))
                }
                try store.journal(event)
            }
            if state.rewrites.isEmpty { state.checkpoint = checkpoint }
            try store.save(state, sideFilesCurrent: sideFilesCurrent)
        } catch {
            throw Verifier.InputError(kind: .unreadable, description: error.description)
        }
        remembered = state
    }

    /// `--forget`: acknowledge standing rewrites and other histories and accept the given root of trust, for
    /// this run; the run then checks the whole history from the root of trust. Only an authentic run makes it
    /// stick (``remember(_:compliant:)`` journals it and saves the state); a refused one leaves the state and
    /// the journal as they were.
    private mutating func acknowledge() {
        guard let store else { return }
        var state = remembered ?? AuditorState.Remembered(trust: trustFingerprints)
        let others = store.otherHistories().map(\.firstCommit.hex)
        pendingForget = JSONObject([
            ("event", .string("forget")), ("at", .string(options.now.rfc3339)),
            ("previousTrust", .array((remembered?.trust ?? []).map { .string($0) })),
            ("trust", .array(trustFingerprints.map { .string($0) })),
            ("previousTip", remembered?.checkpoint.map { .string($0.tip.hex) } ?? .null),
            ("acknowledgedRewrites", .array(state.rewrites.map { .object($0.json) })),
            ("acknowledgedHistories", .array(others.map { .string($0) })),
        ])
        // The remembered tip no longer binds this run (the journal keeps it): check everything again.
        state.checkpoint = nil
        state.trust = trustFingerprints
        state.rewrites = []
        state.acknowledged = Array(Set(state.acknowledged + others)).sorted()
        remembered = state
    }

    /// The signed commit object the journal recorded for `tip`, if any.
    private func rememberedCommitBytes(_ tip: ObjectID) -> [UInt8]? {
        for event in (store?.journalEvents() ?? []).reversed() {
            guard event["tip"]?.stringValue == tip.hex, let text = event["commit"]?.stringValue else { continue }
            return Base64.decode(text)
        }
        return nil
    }
}
