/// An error a user reads: one line naming the problem (SPEC §3), and the exit status a command
/// line that ends with it returns. Every layer's error conforms — `StackDocError` (the document's
/// rules), `StoreError` (Store), `CommandError` (StackDocScript) — and `ErrorReport`
/// (StackDocScript) renders any error through it, in one place.
public protocol UserFacingError: Error, Sendable {
    /// The error as one line of text, every user value quoted and escaped (`Validation.quoted`).
    var message: String { get }
    /// The exit status of a `stackdoc` run that ends with this error (1 unless said otherwise).
    var exitStatus: Int32 { get }
}

extension UserFacingError {
    public var exitStatus: Int32 { 1 }
}
