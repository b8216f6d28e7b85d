// LatchConfig: filled by its issue.
