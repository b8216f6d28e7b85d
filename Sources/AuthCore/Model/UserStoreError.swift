import Foundation

/// Typed conflicts of `UserStore`.
public enum UserStoreError: Error, Hashable, Sendable {
    /// The unique email key was taken.
    case emailTaken
}
