/// A user-facing error: the message names the problem (SPEC §3: "Every error is a clear
/// message naming the problem"). Throwing one must leave every state unchanged.
public struct StackDocError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
