extension OnymLedger {
    /// `witness serve | witness submit`: C2SP tlog-witness over HTTP, both sides (docs/WITNESS.md).
    struct WitnessVerb: Command {
        static let configuration = CommandConfiguration(
            commandName: "witness",
            abstract: "Run a C2SP tlog-witness (witness serve) or collect cosignatures from them (witness submit).",
            usage: """
                witness serve --key WITNESS_KEY --name NAME --log VKEY… [--listen ADDR] [--state DIR]
                                 [--rate-limit N] [--timeout DURATION]
                       witness submit LEDGER --witness NAME=URL=VKEY… [--signing-key KEY] [--timeout DURATION]
                                 [--out FILE] [--trust KEY] [--state DIR] [--json]
                """,
            discussion: """
                serve answers POST /add-checkpoint (C2SP tlog-witness) for every log whose verifier key is given
                with --log — this ledger's or any other C2SP log's. A request is 'old N', the consistency proof
                (base64 hashes, one a line), a blank line and the signed checkpoint. Answers: 200 with the
                cosignature/v1 line; 400 malformed or old above the checkpoint's size; 403 no trusted log signature
                that verifies; 404 unknown origin; 409 (Content-Type text/x.tlog.size, body the witness's size) when
                old is not the size it cosigned last; 422 a consistency proof that does not verify; 413 a body over
                64 KiB; 429 a log over its request budget (Retry-After). What it cosigned last per log is written
                (fsync, rename) before the answer, in the state folder 'cosign' uses, so a restart or a 'cosign'
                with the same key continues from it. Requests for one log run one at a time. It runs until stopped;
                it prints 'listening on ADDR' and its verifier key first, then one line a request on stderr.
                submit sends the ledger's newest checkpoint to each witness with a consistency proof from the
                size that witness cosigned last (its cosignatures/ file; old 0 without one). A 409 is retried once
                from the size the witness names. Each returned line is verified against VKEY, then with
                --signing-key every cosignature is stored in one commit, as 'append' stores what 'cosign' prints;
                without it the cosigned checkpoint is printed (or written to --out) for a later 'append'. Append
                never waits on a witness: submitting is this verb of its own.
                Exit codes: serve 0 when stopped, 64 bad options or an address it cannot listen on; submit 0 when
                every witness cosigned, 1 when one did not (refused, unreachable, timed out, or a line that does
                not verify; the others' are stored) or the ledger does not verify, 64 usage, 65 a ledger that
                cannot be read or a refused append. The protocol as implemented: docs/WITNESS.md.
                """,
            options: [
                OptionHelp(names: "--key WITNESS_KEY", help: "serve: the witness's ed25519 key, like --signing-key."),
                OptionHelp(names: "--name NAME", help: "serve: the witness's name (in its verifier key and lines)."),
                OptionHelp(
                    names: "--log [ORIGIN=]VKEY",
                    help: "serve: a log's verifier key (text or file); ORIGIN defaults to the key's name. Repeatable."),
                OptionHelp(names: "--listen ADDR", help: "serve: HOST:PORT to listen on (default 127.0.0.1:7380)."),
                OptionHelp(
                    names: "--rate-limit N",
                    help: "serve: requests per minute per log, as a token bucket of N (default 60; 0: none)."),
                OptionHelp(
                    names: "--timeout DURATION",
                    help: "serve: per read/write (default PT10S); submit: per witness request (default PT30S)."),
                OptionHelp(
                    names: "--witness NAME=URL=VKEY",
                    help: "submit: a witness's name, submission URL (http or https) and cosignature key. Repeatable."),
                OptionHelp(
                    names: "--signing-key KEY", help: "submit: store the cosignatures in a commit signed by KEY."),
                OptionHelp(names: "--out FILE", help: "submit without --signing-key: write the cosigned note here."),
            ] + AuditOptions.help + [
                OptionHelp(names: "--json", help: "submit: print {origin, size, commit, witnesses: [...]}.")
            ],
            examples: [
                "witness serve --key auditor-witness --name auditor.example --log vendor-log.vkey --listen 0.0.0.0:7380",
                "witness serve --key w --name w.example --log example.com/log+1a2b3c4d+AS0… --state /var/lib/witness",
                "witness submit ledger.git --signing-key vendor-2026 --witness "
                    + "auditor.example=https://witness.auditor.example=auditor.example+5e1f…+BP3…",
                "witness submit ledger.git --witness w.example=http://127.0.0.1:7380=w.vkey --out cosigned.note",
            ])

        enum Action {
            case serve(WitnessServe)
            case submit(WitnessSubmit)
        }

        let action: Action

        init(parsing arguments: inout Arguments) throws(CLIError) {
            switch arguments.subverb(["serve", "submit"]) {
            case "serve": action = .serve(try WitnessServe(parsing: &arguments))
            case "submit": action = .submit(try WitnessSubmit(parsing: &arguments))
            default: throw .usage("witness takes 'serve' or 'submit' first ('witness serve …', 'witness submit …')")
            }
        }

        func run() throws(CLIError) -> ExitCode {
            switch action {
            case .serve(let serve): try serve.run()
            case .submit(let submit): try submit.run()
            }
        }
    }
}
