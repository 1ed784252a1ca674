"""A toy game defined in the tests, installed at test time and played end to end (issue 31, item 4)."""
