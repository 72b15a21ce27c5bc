/// The EXAMPLES section of each verb's `--help`: command lines a user can copy, in the order a new
/// vendor or auditor meets them.
enum Examples {
    static let byVerb: [String: [String]] = [
        "keygen": ["keygen --out vendor-2026", "keygen --out test-key --seed 0101…01   # deterministic, for tests"],
        "init": [
            "init ledger.git --interface onym:component:onym-chat --signing-key vendor-2026 "
                + "--interface-key onym:key:… --team-id ONYMTEAM01 --app app.onym.chat"
        ],
        "append": [
            "append ledger.git --signing-key vendor-2026 manifest.json mandate-1.json",
            "append ledger.git --signing-key vendor-2026 --at 2026-08-01T12:00:00Z verdict-submission.json writes.ndjson",
        ],
        "verify": [
            "verify ledger.git --trust vendor-2026.pub",
            "verify ledger.git                           # again later: only the new commits",
            "verify ledger.git --full --json",
            "verify ledger.git --trust new-root.pub --forget",
        ],
        "gate": [
            "gate ledger.git --user onym:key:… --at 2026-09-01T00:00:00Z",
            "gate ledger.git --binding enrollment:… --at 2026-08-21T00:00:00Z --apple-bits 10 --json",
            "gate ledger.git --client --offline --binding enrollment:… --at 2026-08-20T00:00:00Z --last-success 2026-08-18T00:00:00Z",
        ],
        "report": [
            "report ledger.git --trust vendor-2026.pub --out site   # then open site/index.html",
            "report ledger.git --out /srv/www/ledger --json",
        ],
        "export": [
            "export dsa ledger.git --trust vendor-2026.pub --out statements.jsonl",
            "export dsa ledger.git --config dsa-config.json --out statements.csv",
            "export dsa --print-config > dsa-config.json   # the default mapping, to edit",
        ],
        "reconcile": [
            "reconcile ledger.git --at 2026-07-15T00:00:00Z",
            "reconcile ledger.git --at 2026-11-01T00:00:00Z --all --json",
        ],
        "keys": [
            "keys list ledger.git",
            "keys rotate ledger.git --signing-key old --add new.pub",
            "keys rotate ledger.git --signing-key new --remove old.pub",
        ],
        "log": ["log ledger.git", "log ledger.git --json"],
        "show": [
            "show ledger.git log:151", "show ledger.git <verdictRef>", "show ledger.git receipt:<verdictRef>",
            "show ledger.git commit:<commit>",
        ],
        "repack": ["repack ledger.git"],
        "publish": ["publish ledger.git site/log", "publish ledger.git site/log --trust vendor-2026.pub --json"],
        "prove": [
            "prove ledger.git <verdictRef> > verdict.tlog-proof", "prove ledger.git log:151",
            "prove ledger.git --consistency 1200",
        ],
        "cosign": [
            "cosign ledger.git --key auditor-witness --name auditor.example --trust vendor-2026.pub > cosigned.note",
            "append ledger.git --signing-key vendor-2026 cosigned.note   # the vendor stores it",
        ],
        "textconv": ["textconv batches/0000000/0000000002/mandates/0/0a7d….json"],
        "git-setup": [
            "git-setup ledger   # in a clone (git clone ledger.git ledger), then: git -C ledger log -p --show-signature"
        ],
        "check-proof": [
            "check-proof verdict.tlog-proof --log-key onym-chat+1a2b3c4d+AS0… verdict.json",
            "check-proof verdict.tlog-proof --log-key log.vkey --witness auditor.vkey --witness ngo.vkey --quorum 2 --max-age P1D",
        ],
        "inspect": [
            "inspect mandate.json", "inspect verdict.json --key onym:key:… --json",
            "inspect verdict.json --mandate mandate.json --manifest manifest.json --at 2026-08-10T00:00:00Z",
        ],
    ]
}
