/// The decision-deadline default (onym-wire §9, Moderation.md §3.5/§6.4; profile §8.11, §6 item 4).
///
/// > Every case carries a decision deadline from the manifest; the default disposition at the
/// > deadline is dismissal with the case mark cleared. "A blown decision deadline is a dismissal,
/// > never a sweep interval in which a late ban remains possible."
///
/// The interface applies it itself, without waiting for the authority's sweep. The deadline of a case
/// is fixed by the open-case verdict that opened it: its own signed `decisionDeadline`, else its
/// `decidedAt` + the class's `decisionDeadline` (docs/DECISIONS.md, rules F4–F7):
///
/// * a case with no terminal verdict decided by its deadline is closed at the deadline, and
///   `authorizedBy` names this rule for as long as nothing later governs the binding;
/// * a verdict of such a case decided after the deadline is not executed — neither a late ban nor a
///   late dismissal, which would otherwise take the default's name;
/// * a case decided in time stays an ordinary case: reversals, re-bans and later bans execute, however
///   long after the deadline they are decided. A case reopened by a later open-case verdict gets that
///   verdict's deadline, and its default only clears the case-open mark.
public enum DecisionDeadlineDefault {
    public static let rule = EvaluatorRule.decisionDeadlineDefault

    /// Whether `deadline` had passed when something was decided at `decidedAt`. A verdict decided at
    /// the deadline instant is in time.
    public static func isBlown(_ deadline: Instant, by decidedAt: Instant) -> Bool { deadline < decidedAt }
}
