// AuthCore: filled by its issue.
