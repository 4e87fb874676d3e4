import Layout
import Store

/// Any error a command, a script or a `stackdoc` run ends with, as data — whose it is (the
/// document's rules, the store, the command language) and its kind — and its one rendering:
/// the line the user reads (`message`, also the `"error"` of a `--json` reply) and the exit
/// status. Every place that shows an error (the batch runner, the prompt, one-shot commands,
/// `ScriptError`) renders it here.
public indirect enum ErrorReport: Hashable, Sendable, CustomStringConvertible {
    /// A request that breaks a document rule (Layout).
    case document(StackDocError.Kind)
    /// A failure of the store (Store).
    case store(StoreError.Kind)
    /// A failure of the command language (StackDocScript).
    case command(CommandError.Kind)
    /// An error of no StackDoc layer, kept as its text.
    case other(String)

    /// The report of `error`: its layer's kind, or its text.
    public init(_ error: any Error) {
        switch error {
        case let error as StackDocError: self = .document(error.kind)
        case let error as StoreError: self = .store(error.kind)
        case let error as CommandError: self = .command(error.kind)
        case let error as UserFacingError: self = .other(error.message)
        default: self = .other("\(error)")
        }
    }

    /// The error itself (`.other`: a `StackDocError` of its text).
    public var error: any UserFacingError {
        switch self {
        case .document(let kind): return StackDocError(kind)
        case .store(let kind): return StoreError(kind)
        case .command(let kind): return CommandError(kind)
        case .other(let text): return StackDocError(.message(text))
        }
    }

    /// The error as one line of text.
    public var message: String { error.message }

    /// What happened, without the advice a stale document's error gives (`StoreError.cause`).
    public var cause: String {
        if case .store(let kind) = self { return StoreError(kind).cause }
        return message
    }

    /// The exit status of a `stackdoc` run that ends with this error.
    public var exitStatus: Int32 { error.exitStatus }

    public var description: String { message }

    /// The line `error` is shown as.
    public static func message(_ error: any Error) -> String { ErrorReport(error).message }
}
