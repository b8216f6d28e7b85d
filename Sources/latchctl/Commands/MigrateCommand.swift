import Foundation
import PostgresClient

/// `latchctl migrate [--status]`.
enum MigrateCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "migrate",
            summary: "Apply pending migrations from LATCH_MIGRATIONS_DIR (default sql), or list them.",
            options: [.flag("status", "list applied and pending migrations without changing anything")],
            action: run)
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let directory = URL(fileURLWithPath: try context.configuration().migrationsDirectory)
        let migrator = Migrator(pool: try context.pool(), directory: directory)
        if arguments.flag("status") { return status(try migrator.status()) }
        let applied = try migrator.migrate()
        let text = applied.isEmpty
            ? "schema is up to date"
            : applied.map { "applied \(Display.text($0.fileName))" }.joined(separator: "\n")
        return CommandOutput(text: text, json: .object(["applied": .array(applied.map(json))]))
    }

    private static func status(_ status: MigrationStatus) -> CommandOutput {
        var table = TextTable(["VERSION", "NAME", "STATE", "APPLIED_AT"])
        for migration in status.applied {
            table.append([String(migration.version), migration.name, "applied", Display.timestamp(migration.appliedAt)])
        }
        for migration in status.pending {
            table.append([String(migration.version), migration.name, "pending", "-"])
        }
        let problems = status.problems.map { Display.text(String(describing: $0)) }
        let text = table.rendered() + problems.map { "problem: \($0)\n" }.joined()
        return CommandOutput(text: text, json: .object([
            "applied": .array(status.applied.map { migration in
                .object([
                    "version": .int(migration.version), "name": .string(migration.name),
                    "checksum": .string(migration.checksum), "applied_at": .date(migration.appliedAt),
                ])
            }),
            "pending": .array(status.pending.map(json)),
            "problems": .array(problems.map(JSONValue.string)),
        ]))
    }

    private static func json(_ migration: Migration) -> JSONValue {
        .object(["version": .int(migration.version), "name": .string(migration.name), "file": .string(migration.fileName)])
    }
}
