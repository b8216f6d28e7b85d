// HTTPServer: filled by its issue.
