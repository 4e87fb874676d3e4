import Layout

/// The text of the error `body` throws — any layer's `UserFacingError` `message`, else the
/// error's description — or nil when it throws none. For tests that pin an error's text whichever
/// layer's kind it is (`#expect(thrownMessage { … } == "…")`): errors themselves are equal by
/// kind and values, never by text.
public func thrownMessage<R>(_ body: () throws -> R) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return (error as? UserFacingError)?.message ?? "\(error)"
    }
}

