// LatchStore: filled by its issue.
