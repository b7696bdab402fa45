public enum MockLendingModule {}
