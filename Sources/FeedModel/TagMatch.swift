/// The one rule for matching a tag a person types against a source's tags: case does not count
/// (`--tag tech` finds `Tech` from an OPML import), in every script (Swift's full Unicode
/// lower-casing, not SQLite's ASCII-only NOCASE: `ÖKO` finds `öko`).
public enum TagMatch {
    /// The form tags are compared in.
    public static func folded(_ tag: String) -> String { tag.lowercased() }

    /// Whether `tags` hold `wanted`, case aside.
    public static func matches(_ tags: [String], _ wanted: String) -> Bool {
        let key = folded(wanted)
        return tags.contains { folded($0) == key }
    }
}
