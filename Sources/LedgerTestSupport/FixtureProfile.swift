public import LedgerFormat

/// The Apple DeviceCheck enforcement-profile object of profile §1.
public enum FixtureProfile {
    public static var appleDeviceCheck: JSONObject {
        func binding(_ request: String, _ result: String) -> JSONValue {
            .object(JSONObject([("requestSchema", .string(request)), ("resultSchema", .string(result))]))
        }
        return JSONObject([
            ("profileVersion", .integer(1)),
            ("profileId", .string("onym:moderation-enforcement-profile:apple-devicecheck-v1")),
            ("platform", .string("apple-devicecheck")),
            (
                "bindings",
                .object(
                    JSONObject([
                        (
                            "enroll-device",
                            binding(
                                "onym-moderation-apple-devicecheck-enrollment-request-v1",
                                "onym-moderation-apple-devicecheck-device-enrollment-v1")
                        ),
                        (
                            "countersign-mandate",
                            binding(
                                "onym-moderation-mandate-v1",
                                "onym-moderation-apple-devicecheck-interface-signature-v1")
                        ),
                        (
                            "register-mandate",
                            binding("onym-moderation-mandate-v1", "onym-moderation-mandate-receipt-v1")
                        ),
                        (
                            "gate-check",
                            binding(
                                "onym-moderation-apple-devicecheck-gate-request-v1",
                                "onym-moderation-apple-devicecheck-gate-result-v1")
                        ),
                        (
                            "deliver-verdict",
                            binding("onym-moderation-verdict-submission-v1", "onym-moderation-verdict-receipt-v1")
                        ),
                    ]))
            ),
            ("caseNoticeSchema", .string("onym-moderation-apple-devicecheck-case-notice-v1")),
            ("markBindings", .object(JSONObject([("case-open", .string("bit0")), ("banned", .string("bit1"))]))),
            ("specification", .string(String(repeating: "5", count: 64))),
        ])
    }
}
