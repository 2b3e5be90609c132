/// The ends of the preselected ids' range that a filtered relevance search gives FTS5 for its
/// walk over the matches (`FeedStore.listing(preselected:)`): `upper` lets it start at the
/// newest selected id, `lower` stops it below the oldest. Either is nil when it would not pay:
/// FTS5 takes a rowid bound to seek, but does not tell SQLite that it keeps to it, so SQLite
/// tests it again on every match walked. Measured with callgrind on a million cards (`update`,
/// 287,000 matches, `--tag blogs`: the walk visits 240,000 of them): 130 M instructions for the
/// walk with its set test, 29 M more for each bound, which skipped nothing there (the tag's
/// newest card is among the 2,500 newest, its oldest among the 10,500 oldest).
///
/// A bound is given when what it can skip is at least a quarter of the range it is tested over
/// (`skipRatio`): the matches of skipped ids cost nothing, a bound ~0.22 of walking the matches
/// of the ids it is tested over (matches taken as spread evenly over the ids). Without a
/// bound the walk still finds the same matches (the set holds no id outside the range); it may
/// only visit more of them.
struct PreselectedWalk: Equatable {
    var upper: Int64?
    var lower: Int64?

    /// Skipped ids that pay for testing a bound on one id of the range.
    static let skipRatio: Int64 = 4

    /// The bounds for selected ids within `selected`, of cards whose ids are within `cards`.
    static func bounds(_ selected: ClosedRange<Int64>, cards: ClosedRange<Int64>) -> PreselectedWalk {
        let span = selected.upperBound.subtractingReportingOverflow(selected.lowerBound)
        guard !span.overflow else { return PreselectedWalk() }
        // Whether the ids from `low` to `high` (beyond the selected ones) pay for a bound.
        func pays(_ low: Int64, _ high: Int64) -> Bool {
            guard high > low else { return false }
            let skipped = high.subtractingReportingOverflow(low)
            let (scaled, overflow) = skipped.partialValue.multipliedReportingOverflow(by: skipRatio)
            return skipped.overflow || overflow || scaled >= span.partialValue
        }
        return PreselectedWalk(upper: pays(selected.upperBound, cards.upperBound) ? selected.upperBound : nil,
                               lower: pays(cards.lowerBound, selected.lowerBound) ? selected.lowerBound : nil)
    }
}
