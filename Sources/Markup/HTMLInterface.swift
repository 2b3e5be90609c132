import FeedModel

/// (Interface; the implementation lands with the HTML work.)
public enum HTMLSanitizer {
    /// Allow-list sanitized HTML of `html`, relative URLs resolved against `base`.
    public static func sanitize(_ html: String, base: String?) -> String { html }
}

public enum HTMLText {
    /// The readable text of an HTML fragment.
    public static func plainText(_ html: String) -> String { html }
}

public enum HTMLEntities {
    /// The characters an HTML named entity stands for (`eacute` -> "é"), or nil.
    public static func characters(named name: String) -> String? { nil }
}

public enum HTMLImages {
    /// The first `<img>` of a fragment that is not a tracking pixel, absolute, or nil.
    public static func firstContentImage(_ html: String, base: String?) -> String? { nil }
}
