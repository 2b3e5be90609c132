public enum FeedParsingModule {}
