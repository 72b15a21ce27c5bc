import LedgerFormat
import LedgerStore
import LedgerVerifier

extension OnymLedger {
    /// `inspect`: one record's kind, canonical form, content address, signatures and findings.
    struct Inspect: Command {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Check one input file as append would: kind, content address, signatures, findings.",
            usage:
                "inspect FILE [--key onym:key:…]… [--kind KIND] [--mandate FILE --at RFC3339] [--manifest FILE] [--json]",
            discussion: """
                FILE may be '-' for standard input. The kind is recognized by shape, as append recognizes it
                (\(InputKind.allCases.map(\.rawValue).joined(separator: ", "))), and checked with append's
                rules under the names append and verify use (MandateSignaturePolicy, VerdictValidationPolicy, …).
                Bytes that are not canonical JSON are fine: append stores the canonical form.
                A manifest's detached signature is read from FILE.sig when that file exists.
                What the file alone cannot show is listed as unchecked, with what to give: the keys it does not
                carry (--key: an interface countersigning key, an authority operator key), a bare verdict's
                manifest (--manifest), the mandate and time for verdict validation (--mandate, --at).
                Exit 0 when clean, 1 when a finding exists, 65 when FILE matches no input kind.
                """,
            options: [
                OptionHelp(names: "--key onym:key:…", help: "A key to check signatures against (repeatable)."),
                OptionHelp(names: "--kind KIND", help: "Decode as this kind instead of recognizing the shape."),
                OptionHelp(
                    names: "--mandate FILE", help: "The mandate a verdict names: run the full verdict validation."),
                OptionHelp(names: "--manifest FILE", help: "The consented manifest, for a bare verdict."),
                OptionHelp(names: "--at RFC3339", help: "'Now' for verdict validation (required with --mandate)."),
                OptionHelp(names: "--json", help: "Print the report as one JSON object."),
            ])

        let file: String
        let options: RecordInspector.Options
        let json: Bool

        init(parsing arguments: inout Arguments) throws(CLIError) {
            var options = RecordInspector.Options()
            for text in try arguments.options("--key") {
                do {
                    options.keys.append(try OnymKey.parse(text, field: "--key"))
                } catch {
                    throw .usage("--key \(text): \(error.reason)")
                }
            }
            if let kindName = try arguments.option("--kind") {
                guard let kind = InputKind(rawValue: kindName) else {
                    throw .usage("--kind must be one of \(InputKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.kind = kind
            }
            let mandatePath = try arguments.option("--mandate")
            let manifestPath = try arguments.option("--manifest")
            if let at = try CommonOptions.time("--at", &arguments) { options.now = at }
            json = arguments.flag("--json")
            let rest = try arguments.positionals()
            guard rest.count == 1 else { throw .usage(rest.isEmpty ? "FILE is required" : "one FILE at a time") }
            file = rest[0]
            if let mandatePath {
                guard options.now != nil else { throw .usage("--mandate needs --at (the validation time)") }
                do {
                    options.mandate = try Mandate(json: try CanonicalJSON.parse(try InputFile.read(mandatePath)))
                } catch let error as LedgerFormatError {
                    throw .data("\(mandatePath): \(error)")
                } catch let error as CLIError {
                    throw error
                } catch {
                    throw .data("\(mandatePath): \(error)")
                }
            }
            if let manifestPath {
                do {
                    options.manifest = try AuthorityManifest(rawBytes: try InputFile.read(manifestPath))
                } catch let error as LedgerFormatError {
                    throw .data("\(manifestPath): \(error)")
                } catch let error as CLIError {
                    throw error
                } catch {
                    throw .data("\(manifestPath): \(error)")
                }
            }
            if file != "-", InputFile.exists(file + ".sig") {
                options.detachedSignature = try InputFile.read(file + ".sig")
            }
            self.options = options
        }

        func run() throws(CLIError) -> ExitCode {
            let bytes = try InputFile.read(file)
            let report: InspectionReport
            do {
                report = try RecordInspector.inspect(bytes, options: options)
            } catch {
                throw .data("\(file): \(error)")
            }
            if json {
                Output.json(report.json(file: file))
            } else {
                Output.out(Self.human(report, file: file))
            }
            return report.findings.isEmpty ? .success : .rejected
        }

        static func human(_ report: InspectionReport, file: String) -> String {
            var lines = ["\(file): \(report.kind.rawValue)"]
            let canonical =
                report.isCanonical
                ? "yes"
                : report.kind == .manifest
                    ? "no (a manifest's exact bytes are kept)" : "no (append stores the canonical form)"
            lines.append("  canonical:        \(canonical)")
            if let address = report.contentAddress { lines.append("  content address:  \(address.hex)") }
            for (name, value) in report.summary {
                lines.append("  \((name + ":").padded(to: 18))\(value)")
            }
            for signature in report.signatures {
                let key = signature.key.map { " (\($0))" } ?? ""
                lines.append("  signature \(signature.role): \(signature.status.rawValue)\(key)")
            }
            if report.findings.isEmpty {
                lines.append("  findings:         none")
            } else {
                lines.append("  findings:         \(report.findings.count)")
                for finding in report.findings {
                    lines.append("    - \(finding.policy)\(finding.path.map { " at \($0)" } ?? ""): \(finding.reason)")
                }
            }
            for item in report.unchecked { lines.append("  not checked:      \(item)") }
            return lines.joined(separator: "\n")
        }
    }
}
