import FeedModel
import Markup

/// The card contract applied to one search result, whatever engine it came from: engines put
/// HTML in text fields, relative URLs in image fields and numbers where strings belong.
struct SearchCard {
    var title: String?
    /// HTML or text: sanitized either way (a text field with `<b>` in it is HTML in practice).
    var description: String?
    var link: String?
    var image: String?
    var published: Timestamp?
    var author: String?
    var kind = Card.Kind.article
    /// Base for relative URLs in the fields.
    var base: String?

    func card() -> Card {
        var c = Card(kind: kind)
        c.title = title.flatMap { TextValue(text: $0, kind: .guess, base: base).plain }
        c.descriptionText = description.flatMap { TextValue(text: $0, kind: .html, base: base).htmlText }
        c.link = link.flatMap { TextRules.nonBlank($0) }.flatMap { CardURL.link(CardURL.resolve($0, against: base)) }
        c.image = image.flatMap { TextRules.nonBlank($0) }.flatMap { CardURL.image(CardURL.resolve($0, against: base)) }
            ?? c.descriptionText.flatMap(HTMLImages.firstImageInSanitized)
        c.published = published
        c.author = author.flatMap { TextRules.nonBlank($0) }.map(TextRules.collapseWhitespace)
        return c
    }

    /// A result with no link, no title and no picture has nothing to show or follow: no card.
    static func isWorthKeeping(_ c: Card) -> Bool {
        c.link != nil || c.title != nil || (c.kind == .image && c.image != nil)
    }
}

extension JSONValue {
    /// A non-blank string, else nil (engines send "" for absent).
    var text: String? { TextRules.nonBlank(string) }
}
