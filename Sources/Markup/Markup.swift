public enum MarkupModule {}
