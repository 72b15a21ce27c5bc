import LedgerFormat

/// The overview's timeline as inline SVG: per week (Monday 00:00 UTC), the bit writes (ok and failed) and
/// the verdicts by disposition, as two bar charts over one time axis — with the same numbers as a table
/// for screen readers and for reading exact values.
enum TimelineChart {
    struct Week {
        var writesOK = 0
        var writesFailed = 0
        var openCase = 0
        var ban = 0
        var dismiss = 0
        var verdicts: Int { openCase + ban + dismiss }

        mutating func add(_ other: Week) {
            writesOK += other.writesOK
            writesFailed += other.writesFailed
            openCase += other.openCase
            ban += other.ban
            dismiss += other.dismiss
        }
        var writes: Int { writesOK + writesFailed }
    }

    static let secondsPerWeek: Int64 = 7 * 86_400
    /// 1970-01-01 was a Thursday: weeks start three days before each multiple of seven days.
    static let mondayOffset: Int64 = 3 * 86_400

    static func weekStart(_ instant: Instant) -> Int64 {
        let shifted = instant.seconds + mondayOffset
        let floored = shifted >= 0 ? shifted / secondsPerWeek : (shifted - secondsPerWeek + 1) / secondsPerWeek
        return floored * secondsPerWeek - mondayOffset
    }

    static func weeks(_ model: ReportModel) -> [(start: Int64, week: Week)] {
        var weeks: [Int64: Week] = [:]
        for entry in model.contents.entries {
            let key = weekStart(entry.recordedAt)
            if entry.succeeded {
                weeks[key, default: Week()].writesOK += 1
            } else {
                weeks[key, default: Week()].writesFailed += 1
            }
        }
        for verdict in model.contents.verdicts {
            let key = weekStart(verdict.decidedAt)
            switch verdict.disposition {
            case .openCase: weeks[key, default: Week()].openCase += 1
            case .ban: weeks[key, default: Week()].ban += 1
            case .dismiss: weeks[key, default: Week()].dismiss += 1
            }
        }
        return bars(weeks)
    }

    /// The bars for counts by week start: every bar between the first and the last week, empty ones included.
    static func bars(_ weeks: [Int64: Week]) -> [(start: Int64, week: Week)] {
        guard let first = weeks.keys.min(), let last = weeks.keys.max() else { return [] }
        // Every bar between the first and the last, empty ones included, so the axis is time. A bar is one
        // week, or several when the history spans more than `maxBars` weeks: signed times are the authorities'
        // and the vendor's, and one dated centuries back must not make a page of a million bars.
        let span = (last - first) / secondsPerWeek + 1
        let width = (span + maxBars - 1) / maxBars * secondsPerWeek
        var bars: [Int64: Week] = [:]
        for (start, week) in weeks {
            let bar = first + (start - first) / width * width
            bars[bar, default: Week()].add(week)
        }
        return stride(from: first, through: last, by: Int(width)).map { ($0, bars[$0] ?? Week()) }
    }

    /// Most bars a chart draws.
    static let maxBars: Int64 = 260

    static func render(_ model: ReportModel) -> String {
        let weeks = weeks(model)
        guard !weeks.isEmpty else { return "<p>No writes or verdicts yet.</p>\n" }
        let barWeeks = weeks.count > 1 ? (weeks[1].start - weeks[0].start) / secondsPerWeek : 1
        let width = 760
        let barWidth = max(2, min(24, (width - 40) / weeks.count))
        let chartHeight = 90
        func chart(title: String, series: [(name: String, className: String, value: (Week) -> Int)]) -> String {
            let peak = max(1, weeks.map { week in series.reduce(0) { $0 + $1.value(week.week) } }.max() ?? 1)
            var svg =
                "<figure><svg role=\"img\" aria-label=\"\(HTML.escape(title)), weekly\" viewBox=\"0 0 \(width) \(chartHeight + 30)\" class=\"chart\">\n"
            svg += "<title>\(HTML.escape(title)), weekly; peak \(peak)</title>\n"
            for (index, item) in weeks.enumerated() {
                var y = chartHeight
                let x = 30 + index * barWidth
                for part in series {
                    let value = part.value(item.week)
                    guard value > 0 else { continue }
                    let height = max(1, value * chartHeight / peak)
                    y -= height
                    svg +=
                        "<rect class=\"\(part.className)\" x=\"\(x)\" y=\"\(y)\" width=\"\(max(1, barWidth - 1))\" height=\"\(height)\"><title>from \(String(Instant(seconds: item.start).rfc3339.prefix(10))): \(value) \(HTML.escape(part.name))</title></rect>\n"
                }
            }
            svg +=
                "<text x=\"0\" y=\"12\" class=\"axis\">\(peak)</text><text x=\"0\" y=\"\(chartHeight)\" class=\"axis\">0</text>\n"
            svg +=
                "<text x=\"30\" y=\"\(chartHeight + 20)\" class=\"axis\">\(String(Instant(seconds: weeks[0].start).rfc3339.prefix(10)))</text>\n"
            svg +=
                "<text x=\"\(30 + (weeks.count - 1) * barWidth)\" y=\"\(chartHeight + 20)\" class=\"axis\" text-anchor=\"end\">\(String(Instant(seconds: weeks[weeks.count - 1].start).rfc3339.prefix(10)))</text>\n"
            svg += "</svg>\n<figcaption>\(HTML.escape(title)): "
            svg += series.map { "<span class=\"key \($0.className)\"></span>\(HTML.escape($0.name))" }.joined(
                separator: " ")
            return svg + "</figcaption></figure>\n"
        }
        var out = chart(
            title: "Bit writes",
            series: [("ok", "write-ok", { $0.writesOK }), ("failed", "write-failed", { $0.writesFailed })])
        out += chart(
            title: "Verdicts",
            series: [
                ("open-case", "open-case", { $0.openCase }), ("ban", "ban", { $0.ban }),
                ("dismiss", "dismiss", { $0.dismiss }),
            ])
        let rows = weeks.filter { $0.week.writes + $0.week.verdicts > 0 }.map { item in
            [
                String(Instant(seconds: item.start).rfc3339.prefix(10)), "\(item.week.writesOK)",
                "\(item.week.writesFailed)",
                "\(item.week.openCase)", "\(item.week.ban)", "\(item.week.dismiss)",
            ]
        }
        out += "<details><summary>The numbers</summary>\n"
        out += HTML.table(
            caption:
                "Per bar: \(barWeeks == 1 ? "1 week" : "\(barWeeks) weeks") from the date shown (weeks start Monday, UTC)",
            headers: ["From", "Writes ok", "Writes failed", "Open-case", "Ban", "Dismiss"], rows: rows)
        return out + "</details>\n"
    }
}
