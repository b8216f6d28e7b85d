import AuthCore
import Foundation
import LatchCrypto

/// `latchctl secret generate`: a new server secret for `LATCH_SECRET_KEY`. Needs no configuration, since it is
/// what the configuration needs first.
enum SecretCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "secret", summary: "Make server secrets.",
            subcommands: [
                CommandSpec(
                    name: "generate", summary: "Print a new LATCH_SECRET_KEY: base64 of 32 bytes from OpenSSL's CSPRNG.",
                    discussion: """
                        Store it where latchd and latchctl read it, e.g.
                          latchctl secret generate > /etc/latch/secret-key && chmod 600 /etc/latch/secret-key
                          LATCH_SECRET_KEY_FILE=/etc/latch/secret-key
                        Every instance of one deployment needs the same secret. Replacing it makes the codes in mails
                        already sent and the stored signing keys unusable.
                        """,
                    action: generate),
            ])
    }

    static func generate(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let secret = try ServerSecret(bytes: Data(try SecureRandom.bytes(count: ServerSecret.byteCount)))
        return CommandOutput(text: secret.base64, json: .object(["secret_key": .string(secret.base64)]))
    }
}
