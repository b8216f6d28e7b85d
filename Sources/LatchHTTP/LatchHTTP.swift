// LatchHTTP: filled by its issue.
