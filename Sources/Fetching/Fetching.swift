public enum FetchingModule {}
