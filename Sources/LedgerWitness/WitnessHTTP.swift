import LedgerFormat

/// `witness serve`'s routes (docs/WITNESS.md): `POST /add-checkpoint` answered by a ``WitnessService``;
/// any other path 404, any other method 405.
public enum WitnessHTTP {
    /// tlog-witness's 409 body type: "The response MUST have a Content-Type of text/x.tlog.size."
    public static let sizeContentType = "text/x.tlog.size"

    /// The handler for ``HTTPServer``; `log` gets one line per request (status, then what it was about).
    public static func handler(
        _ service: WitnessService, log: @escaping @Sendable (String) -> Void
    ) -> @Sendable (HTTPRequest) -> HTTPResponse {
        { request in
            let response = respond(service, request)
            log("\(response.status) \(request.method) \(request.path.prefix(100)) \(summary(request, response))")
            return response
        }
    }

    static func respond(_ service: WitnessService, _ request: HTTPRequest) -> HTTPResponse {
        guard request.path == "/add-checkpoint" else {
            return HTTPResponse(status: 404, body: "no such endpoint; POST /add-checkpoint\n")
        }
        guard request.method == "POST" else {
            var response = HTTPResponse(status: 405, body: "add-checkpoint is a POST\n")
            response.headers = [("Allow", "POST")]
            return response
        }
        switch service.addCheckpoint(request.body) {
        case .success(let line):
            return HTTPResponse(status: 200, body: line.line)
        case .failure(let refusal):
            return response(refusal)
        }
    }

    static func response(_ refusal: WitnessRefusal) -> HTTPResponse {
        if let latest = refusal.latestSize {
            return HTTPResponse(status: refusal.status, contentType: sizeContentType, body: "\(latest)\n")
        }
        var response = HTTPResponse(status: refusal.status, body: refusal.description + "\n")
        if let seconds = refusal.retryAfter { response.headers = [("Retry-After", String(seconds))] }
        return response
    }

    /// "origin size N old M: reason" for the server's log, from whatever of the request parses.
    static func summary(_ request: HTTPRequest, _ response: HTTPResponse) -> String {
        let detail = String(decoding: response.body.prefix(200), as: UTF8.self).split(separator: "\n").first ?? ""
        guard let parsed = try? AddCheckpointRequest(parsing: request.body) else { return String(detail) }
        let about = "\(parsed.checkpoint.origin.prefix(100)) size \(parsed.checkpoint.size) old \(parsed.oldSize)"
        return response.status == 200 ? about : "\(about): \(detail)"
    }
}
