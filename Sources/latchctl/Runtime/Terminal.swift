#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Standard input as latchctl uses it: passwords (never from argv) and confirmations of destructive commands.
struct Terminal {
    /// Whether standard input is a terminal (a person), as opposed to a pipe or file (a script).
    var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Asks a question on standard error and reads one line of answer, nil at end of input.
    func ask(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        return readLine(strippingNewline: true)
    }

    /// Reads a password from standard input: on a terminal one line with echo off, from a pipe everything up to
    /// the end with one trailing newline removed (`printf '%s\n' "$PW" | latchctl …` and `< file` both work).
    func readPassword(prompt: String) throws -> String {
        guard isInteractive else {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            var text = String(decoding: data, as: UTF8.self)
            // "\r\n" is one Character in Swift, so one removal covers both line endings.
            if text.last == "\n" || text.last == "\r\n" { text.removeLast() }
            return text
        }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw CommandFailure("cannot read the terminal settings") }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return ask(prompt) ?? ""
    }
}
