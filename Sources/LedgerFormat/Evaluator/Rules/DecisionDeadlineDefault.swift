/// The decision-deadline default (onym-wire §9, Moderation.md §3.5/§6.4; profile §8.11, §6 item 4).
///
/// > Every case carries a decision deadline from the manifest; the default disposition at the
/// > deadline is dismissal with the case mark cleared. "A blown decision deadline is a dismissal,
/// > never a sweep interval in which a late ban remains possible."
///
/// The interface applies it itself, without waiting for the authority's sweep: an open case whose
/// deadline (the open-case verdict's signed `decisionDeadline`, else its `decidedAt` + the class's
/// `decisionDeadline`) has passed at T with no terminal verdict *decided* by then is closed. A ban of
/// that case decided after the deadline is a late ban and is not executed (docs/DECISIONS.md).
public enum DecisionDeadlineDefault {
    public static let rule = EvaluatorRule.decisionDeadlineDefault

    /// Whether an open case opened by `openCase` has defaulted at `time`, given the terminal
    /// verdicts of the same case that were received by then.
    public static func hasDefaulted(_ openCase: VerdictFact, terminals: [VerdictFact], at time: Instant) -> Bool {
        guard let deadline = openCase.decisionDeadline, deadline <= time else { return false }
        return !terminals.contains { $0.decidedAt <= deadline }
    }

    /// Whether `terminal` was decided after its case had already defaulted (a late ban or dismissal).
    public static func isLate(_ terminal: VerdictFact, openCase: VerdictFact?) -> Bool {
        guard let deadline = openCase?.decisionDeadline else { return false }
        return terminal.decidedAt > deadline
    }
}
