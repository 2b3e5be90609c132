import FeedModel
import Foundation
import Markup

/// One block or keep rule of the sources file (like Miniflux's block/keep rules and newsboat's
/// `ignore-article`): `skip="(?i)sponsored"` drops the cards it matches, `keep="swift|sqlite"`
/// drops those it does not; `skip="title:(?i)^ad:"` looks at one field only. On a source's line
/// for that source, on the `global` line for every feed.
public struct CardRule: Sendable, Hashable {
    public enum Action: String, Sendable { case skip, keep }
    public enum Field: String, Sendable, CaseIterable { case title, author, link, description }

    public var action: Action
    /// The fields looked at: one, or all four (no prefix).
    public var fields: [Field]
    /// The regular expression (NSRegularExpression's ICU syntax).
    public var pattern: String
    /// From the `global` line (not written back onto a source's line).
    public var isGlobal: Bool

    /// The value as written after `skip=` or `keep=`.
    public var written: String {
        fields.count == 1 ? fields[0].rawValue + ":" + pattern : pattern
    }

    /// Patterns longer than this are refused: the file is the user's, but a rule this long is
    /// a mistake (and its compiled form and matching cost grow with it).
    public static let maxPatternLength = 1_000
    /// Rules on one line at most.
    public static let maxPerLine = 32

    /// The rule `value` (of `skip=` or `keep=`) states, or why it cannot be one.
    public static func parse(_ action: Action, _ value: String, isGlobal: Bool = false) -> Result<CardRule, RuleError> {
        var fields = Field.allCases
        var pattern = value
        if let colon = value.firstIndex(of: ":"), let field = Field(rawValue: value[..<colon].lowercased()) {
            fields = [field]
            pattern = String(value[value.index(after: colon)...])
        }
        guard !pattern.isEmpty else { return .failure(RuleError("\(action.rawValue)= needs a regular expression, like \(action.rawValue)=\"(?i)sponsored\"")) }
        guard pattern.count <= maxPatternLength else {
            return .failure(RuleError("\(action.rawValue)= is longer than \(maxPatternLength) characters"))
        }
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            return .failure(RuleError("\(action.rawValue)=\(value) is not a regular expression (ICU syntax, as NSRegularExpression reads it)"))
        }
        return .success(CardRule(action: action, fields: fields, pattern: pattern, isGlobal: isGlobal))
    }

    public struct RuleError: Error { public var reason: String; init(_ reason: String) { self.reason = reason } }
}

/// The rules of one source compiled for one fetch, applied to each card as it is parsed. A
/// feed's text is hostile and a pattern may backtrack badly on it (`(a+)+$` on "aaaa…b"), so the
/// work is bounded: each field's first `maxFieldLength` characters only (a description as its
/// text, without markup), each match at most `matchBudget`, the whole fetch at most
/// `fetchBudget`. Past a bound the rule counts as not matching that card; past the fetch's bound
/// the rules stop for the rest of the fetch (those cards are saved) and `stopped` says so.
/// Made and used on one thread (a parsing worker).
final class CardRuleFilter {
    static let maxFieldLength = 4_096
    static let matchBudget: Duration = .milliseconds(20)
    static let fetchBudget: Duration = .seconds(1)

    private let skips: [(NSRegularExpression, [CardRule.Field])]
    private let keeps: [(NSRegularExpression, [CardRule.Field])]
    private let clock = ContinuousClock()
    private var spent: Duration = .zero
    private(set) var skipped = 0
    private(set) var stopped = false

    /// Nil when there is no rule.
    init?(_ rules: [CardRule]) {
        guard !rules.isEmpty else { return nil }
        func compiled(_ action: CardRule.Action) -> [(NSRegularExpression, [CardRule.Field])] {
            rules.filter { $0.action == action }.compactMap { rule in
                (try? NSRegularExpression(pattern: rule.pattern)).map { ($0, rule.fields) }
            }
        }
        skips = compiled(.skip)
        keeps = compiled(.keep)
    }

    /// Whether `card` is saved; counts those that are not.
    func admits(_ card: Card) -> Bool {
        guard !stopped else { return true }
        var texts: [CardRule.Field: String] = [:]
        func text(_ field: CardRule.Field) -> String {
            if let t = texts[field] { return t }
            let t: String
            switch field {
            case .title: t = String((card.title ?? "").prefix(Self.maxFieldLength))
            case .author: t = String((card.author ?? "").prefix(Self.maxFieldLength))
            case .link: t = String((card.link ?? "").prefix(Self.maxFieldLength))
            case .description: t = card.description.map { HTMLText.searchText($0, limit: Self.maxFieldLength * 4) } ?? ""
            }
            texts[field] = t
            return t
        }
        // A match cut short by its budget decides nothing: the card is then saved.
        var undecided = false
        func matches(_ rule: (NSRegularExpression, [CardRule.Field])) -> Bool {
            rule.1.contains { field in
                let t = text(field)
                guard !t.isEmpty else { return false }
                guard let found = match(rule.0, t) else { undecided = true; return false }
                return found
            }
        }
        if skips.contains(where: matches) { return reject() }
        if !keeps.isEmpty, !keeps.contains(where: matches), !undecided { return reject() }
        return true
    }

    private func reject() -> Bool {
        skipped += 1
        return false
    }

    /// Whether `regex` matches in `text`; nil when the match's or the fetch's budget ran out first.
    private func match(_ regex: NSRegularExpression, _ text: String) -> Bool? {
        guard !stopped else { return nil }
        let clock = self.clock
        let start = clock.now
        var found = false
        var cut = false
        var calls = 0
        // `.reportProgress` calls back during a long search, which is where it can be stopped.
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) { result, _, stop in
            if result != nil { found = true; stop.pointee = true; return }
            calls += 1
            if calls & 63 == 0, clock.now - start > Self.matchBudget { cut = true; stop.pointee = true }
        }
        spent += clock.now - start
        if spent > Self.fetchBudget { stopped = true }
        return found ? true : cut || stopped ? nil : false
    }
}
