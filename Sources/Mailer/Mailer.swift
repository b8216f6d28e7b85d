// Mailer: filled by its issue.
