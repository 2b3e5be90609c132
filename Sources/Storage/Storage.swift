public enum StorageModule {}
