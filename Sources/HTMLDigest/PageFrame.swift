import Markup

/// The frame every page shares: the head with its security policy, the site header with the
/// navigation, the footer.
enum PageFrame {
    /// No script of any kind, no plugin, no frame, no form target, no base change; images and
    /// the stylesheet only from the site itself. A sanitizer miss cannot run and a page cannot
    /// make a request outside its folder. (`frame-ancestors` only works as a header; a server
    /// that wants it sets it there.)
    static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'"

    /// Which navigation entry is the current page.
    enum Section { case latest, sorted, archive, sources, tags }

    static func open(title: String, siteTitle: String, root: String, section: Section, into out: inout String) {
        out += """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="referrer" content="no-referrer">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">

        """
        out += "<title>" + HTMLEscaping.text(title == siteTitle ? title : title + " · " + siteTitle) + "</title>\n"
        out += "<link rel=\"stylesheet\" href=\"" + root + "style.css\">\n"
        out += "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"" + root + "digest.atom\" title=\""
            + HTMLEscaping.attribute(siteTitle) + "\">\n"
        out += "</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the cards</a>\n<header class=\"site\">\n"
        out += "<p class=\"site-title\"><a href=\"" + root + "index.html\">" + HTMLEscaping.text(siteTitle) + "</a></p>\n"
        out += "<nav aria-label=\"Site\"><ul>"
        let entries: [(Section, String, String)] = [
            (.latest, "index.html", "Latest"), (.sorted, "sort-newest.html", "All latest cards"),
            (.archive, "archive/index.html", "Archive"), (.sources, "sources/index.html", "Sources"), (.tags, "tags/index.html", "Tags"),
        ]
        for (entry, href, label) in entries {
            out += "<li><a href=\"" + root + href + "\"" + (entry == section ? " aria-current=\"page\"" : "") + ">" + label + "</a></li>"
        }
        out += "<li><a href=\"" + root + "digest.atom\">Atom feed</a></li>"
        out += "<li><a href=\"" + root + "sources.opml\">OPML</a></li></ul></nav>\n</header>\n<main id=\"main\">\n"
        out += "<h1>" + HTMLEscaping.text(title) + "</h1>\n"
    }

    static func close(into out: inout String) {
        out += "</main>\n<footer><p>Written by feeds. No scripts, no trackers: everything this page shows is in its folder.</p></footer>\n</body>\n</html>\n"
    }
}
