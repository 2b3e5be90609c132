/// The stored source of each line of the sources file, matched by URL (the identity; stored
/// URLs are unique, the schema's UNIQUE, and so are the file's, `SourcesFile.listing`).
///
/// The two lists are nearly always in the same order (a source is stored when its line is
/// added, and both list in that order), so each entry is first compared with the stored source
/// after the last one matched, and a dictionary of the stored URLs is built only when the
/// orders part (a line moved, inserted or deleted by hand): hashing 5,000 URLs into a
/// dictionary, twice per `feeds sources` (the sync, then the listing), was 4 % of it.
/// Strings compare as the dictionary would (`==`: canonical equivalence), so the result is the
/// same either way.
enum SourcePairing {
    /// For each entry, the index in `stored` of the one with its URL, or nil.
    static func match<Entry, Stored>(_ entries: [Entry], _ stored: [Stored],
                                     entryURL: (Entry) -> String, storedURL: (Stored) -> String) -> [Int?] {
        var result: [Int?] = []
        result.reserveCapacity(entries.count)
        var next = 0
        var byURL: [String: Int]?
        for entry in entries {
            let url = entryURL(entry)
            if next < stored.count, storedURL(stored[next]) == url {
                result.append(next)
                next += 1
                continue
            }
            if byURL == nil {
                var built: [String: Int] = [:]
                built.reserveCapacity(stored.count)
                for (index, source) in stored.enumerated() where built[storedURL(source)] == nil {
                    built[storedURL(source)] = index
                }
                byURL = built
            }
            let found = byURL?[url]
            if let found { next = found + 1 }
            result.append(found)
        }
        return result
    }
}
