// PostgresClient: filled by its issue.
