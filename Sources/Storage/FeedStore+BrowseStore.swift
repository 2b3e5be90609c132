// SQLite answers `BrowseStore` with the methods browse has always called: the windows of
// FeedStore+Window.swift, the search listing of SearchListing.swift and `PRAGMA data_version`.
extension FeedStore: BrowseStore {}

extension SearchListing: SearchListingWindow {}
