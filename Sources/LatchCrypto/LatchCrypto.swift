// LatchCrypto: filled by its issue.
