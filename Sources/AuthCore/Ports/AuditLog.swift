import Foundation

/// The `audit_log` table (ARCHITECTURE.md, security rule 9).
public protocol AuditLog: Sendable {
    func record(_ event: AuditEvent) throws
}
