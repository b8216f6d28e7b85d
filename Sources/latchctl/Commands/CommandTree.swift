import LatchConfig

/// latchctl's commands, as one tree of values: `HelpText` prints it, `ArgumentParser` walks it.
enum CommandTree {
    static var root: CommandSpec {
        CommandSpec(
            name: "latchctl",
            summary: "Operate Latch: issue links, manage users, sessions, second factors, passkeys and identities, "
                + "webhook endpoints, look after the outbox, the mail templates and the database.",
            subcommands: [
                MigrateCommand.spec, LinkCommand.spec, UsersCommand.spec, SessionsCommand.spec, MfaCommand.spec,
                PasskeysCommand.spec, IdentitiesCommand.spec, OutboxCommand.spec, AuditCommand.spec, TokensCommand.spec,
                KeysCommand.spec, SecretCommand.spec, MailCommand.spec, WebhooksCommand.spec, ApiKeysCommand.spec,
            ],
            discussion: """
                latchctl connects to PostgreSQL directly (DATABASE_URL or --database-url) and reads the same
                LATCH_* settings as latchd (link base, app scheme, TTLs, Argon2 parameters, retention).
                Exit codes: 0 success, 1 the operation failed, 2 usage or configuration error.

                """ + ConfigurationLoader.secretFilesHelp
        )
    }
}
