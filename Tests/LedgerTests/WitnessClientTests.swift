import Foundation
import Testing

@testable import LedgerFormat
@testable import LedgerWitness

/// The witness client is the project's own HTTP/1.1 (docs/WITNESS.md, "The client"): against small Python
/// servers (Tests/Interop/http_answers.py, raw sockets and the `ssl` module) it sends the request the spec
/// names, reads chunked and length-framed answers, refuses an answer over its bound, a silent server at the
/// deadline, a closed port and a non-HTTP answer, each with a clear error; over https it verifies the
/// certificate against the trust store (`SSL_CERT_FILE`) and the URL's host name.
@Suite("Transparency: the witness client")
struct WitnessClientTests {
    static let script = WitnessProtocolTests.interop.appendingPathComponent("http_answers.py").path

    /// `http_answers.py serve MODE …` as a subprocess, stopped when the test is done with it.
    final class AnswerServer {
        let process = Process()
        let port: String

        init(_ mode: String, _ options: [String] = []) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", WitnessClientTests.script, "serve", mode] + options
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            guard line.hasPrefix("listening on 127.0.0.1:") else {
                process.terminate()
                throw ServerStartFailure(output: line)
            }
            port = String(line.dropFirst("listening on 127.0.0.1:".count)).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }

        /// `scheme://host:port/path` for this server.
        func url(_ scheme: String = "http", host: String = "127.0.0.1", path: String = "/witness") -> URL {
            URL(string: "\(scheme)://\(host):\(port)\(path)")!
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }
    }

    struct ServerStartFailure: Error { let output: String }

    static func post(_ server: AnswerServer, timeout: Double = 30) -> Result<
        WitnessClient.Answer, WitnessSubmission.Failure
    > {
        WitnessClient.post("old 0\n\ncheckpoint\n", to: server.url(), timeout: timeout)
    }

    static func failure(_ result: Result<WitnessClient.Answer, WitnessSubmission.Failure>) -> String {
        guard case .failure(let failure) = result else { return "an answer" }
        return failure.description
    }

    /// The request is `POST <prefix>/add-checkpoint HTTP/1.1` with Host, the text/plain Content-Type, the
    /// body's Content-Length and `Connection: close`, then the body.
    @Test func theRequestIsOnePostToAddCheckpoint() throws {
        let server = try AnswerServer("echo")
        let answer = try Self.post(server).get()
        let request = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == 200)
        #expect(answer.contentType == "text/plain; charset=utf-8")
        #expect(request.hasPrefix("POST /witness/add-checkpoint HTTP/1.1\r\n"), "\(request)")
        for field in [
            "Host: 127.0.0.1:\(server.port)", "Content-Type: text/plain; charset=utf-8", "Content-Length: 18",
            "Connection: close",
        ] {
            #expect(request.contains("\r\n\(field)\r\n"), "\(field) in \(request)")
        }
        #expect(request.hasSuffix("\r\n\r\nold 0\n\ncheckpoint\n"))
    }

    /// RFC 9112 §7.1: the chunks are joined; a chunk extension and a trailer field are read and ignored.
    @Test func aChunkedAnswerIsJoined() throws {
        let server = try AnswerServer("chunked")
        let answer = try Self.post(server).get()
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "hello, chunked world\n")
    }

    /// An answer over 64 KiB is refused, whether its length is declared or it runs to the connection's end.
    @Test func anAnswerOverTheBoundIsRefused() throws {
        for mode in ["long", "long-close"] {
            let failure = Self.failure(Self.post(try AnswerServer(mode)))
            #expect(failure == "the answer is over 65536 bytes", "\(mode): \(failure)")
        }
    }

    /// A server that accepts and never answers ends the exchange at the deadline.
    @Test func aSilentServerTimesOut() async throws {
        await failingIfHung {
            let failure = Self.failure(Self.post(try AnswerServer("silent"), timeout: 1))
            #expect(failure == "timed out: no complete answer within 1 s", "\(failure)")
        }
    }

    /// Nobody listens on port 1: unreachable, with the system's reason.
    @Test func aClosedPortIsUnreachable() {
        let result = WitnessClient.post("old 0\n", to: URL(string: "http://127.0.0.1:1")!, timeout: 30)
        #expect(Self.failure(result) == "unreachable: 127.0.0.1 port 1: Connection refused")
    }

    @Test func anAnswerThatIsNotHTTPIsSaidToBe() throws {
        let failure = Self.failure(Self.post(try AnswerServer("garbage")))
        #expect(failure == "not an HTTP answer: the status line is 'SSH-2.0-OpenSSH_9.6'", "\(failure)")
    }

    /// https in front of our own `witness serve` (the TLS front http_answers.py `forward`, with a
    /// certificate for `localhost` signed by a CA made here): with the CA given through `SSL_CERT_FILE`,
    /// `witness submit` is cosigned; without it, or with a URL naming another host than the certificate,
    /// the witness is not cosigned and the reason is OpenSSL's verification error.
    @Test func httpsVerifiesTheCertificateAndTheHostName() async throws {
        await failingIfHung {
            let scenario = WitnessTests.ledger()
            let certificates = scenario.scratch.path("tls")
            try FileManager.default.createDirectory(atPath: certificates, withIntermediateDirectories: true)
            let made = runProcess("python3", [Self.script, "certs", certificates])
            #expect(made.status == 0, "\(made.stderr)")
            let witness = try WitnessProtocolTests.serve(
                scenario.scratch, name: "tls.example", seed: "51", logs: [try WitnessProtocolTests.logKey(scenario)])
            defer { witness.stop() }
            let upstream = witness.url.dropFirst("http://".count)
            func front(_ stem: String) throws -> AnswerServer {
                try AnswerServer(
                    "forward",
                    [
                        "--tls", certificates + "/\(stem).pem", certificates + "/\(stem).key", "--forward",
                        String(upstream),
                    ])
            }
            let localhost = try front("localhost")
            let other = try front("other")
            let trusted = ["SSL_CERT_FILE": certificates + "/ca.pem", "SSL_CERT_DIR": certificates]
            func submit(_ server: AnswerServer, host: String, _ environment: [String: String]) -> (
                status: Int32, stderr: String
            ) {
                let result = CLI.run(
                    [
                        "witness", "submit", scenario.ledger, "--trust", WitnessTests.trust(scenario), "--timeout",
                        "PT20S", "--witness",
                        "tls.example=\(server.url("https", host: host, path: ""))=\(witness.vkey)",
                    ], environment: environment)
                return (result.status, result.stderr + result.stdout)
            }
            let unknownCA = submit(localhost, host: "localhost", ["SSL_CERT_DIR": certificates + "/none"])
            #expect(unknownCA.status == 1)
            #expect(
                unknownCA.stderr.contains(
                    "tls.example: not cosigned: https://localhost:\(localhost.port): the certificate of "
                        + "localhost does not verify: unable to get local issuer certificate"), "\(unknownCA.stderr)")
            let wrongName = submit(other, host: "localhost", trusted)
            #expect(wrongName.status == 1)
            #expect(
                wrongName.stderr.contains("the certificate of localhost does not verify: hostname mismatch"),
                "\(wrongName.stderr)")
            let wrongAddress = submit(localhost, host: "127.0.0.1", trusted)
            #expect(wrongAddress.status == 1)
            #expect(
                wrongAddress.stderr.contains("the certificate of 127.0.0.1 does not verify: IP address mismatch"),
                "\(wrongAddress.stderr)")
            let cosigned = submit(localhost, host: "localhost", trusted)
            #expect(cosigned.status == 0, "\(cosigned.stderr)")
            #expect(cosigned.stderr.contains("tls.example: cosigned"), "\(cosigned.stderr)")
        }
    }
}
