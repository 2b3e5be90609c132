import Foundation

/// The one folding of search text, applied to what is indexed and to every query word (then
/// SQLite's `unicode61 remove_diacritics 2` folds diacritics and the case it knows): the
/// compatibility forms as their letters (`ﬁ` as `fi`, full-width `Ｆｅｅｄ` as `Feed`, `²` as
/// `2`), and case in every script by full case mapping (`ß` and `ẞ` as `ss`, final `ς` as `σ`,
/// `ǅ` as `ǆ`). Turkish dotted and dotless i both fold to `i` (a search cannot know the
/// language; before, `ı` matched only itself and `İ` only `i̇`).
/// Changing this changes what the index holds: bump `SearchIndexer.schemaVersion`.
public enum SearchFolding {
    public static func fold(_ text: String) -> String {
        // ASCII needs nothing unicode61 does not do itself: most text costs one pass.
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        // Upper then lower: the full mappings (ß -> SS -> ss), which lowercasing alone lacks.
        return text.decomposedStringWithCompatibilityMapping.uppercased().lowercased()
    }

    public static func fold(_ text: String?) -> String? { text.map { fold($0) } }
}
