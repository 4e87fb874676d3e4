import Layout

/// Checks the values read back from a database file against the document rules (`Validation`,
/// the one validator that the planner, the importer and the write path use too). No command can
/// write a value outside them, so one that is there means the file was edited by hand or damaged
/// in a way SQLite does not notice: the document is refused as corrupt, naming the row and the
/// value, instead of being laid out (a size of 1e308 or infinity would give infinite frames).
/// O(1) per row, no allocation when the row is valid (`Validation.isValid`, the fast path).
enum StoredValues {
    /// Throws `database 'F' is corrupt: document 'd': row 'a' content.height: must be ≤ …`.
    static func check(id: RowID, parent: RowID?, config c: RowConfig, document: String, path: String) throws {
        if Validation.isValidRowID(id), parent.map(Validation.isValidRowID) ?? true, Validation.isValid(c) { return }
        do {
            try Validation.checkRowID(id, "row id")
            let p = "row \(Validation.quoted(id))"
            if let parent { try Validation.checkRowID(parent, p + " parent") }
            try Validation.check(c, prefix: p + " ")
        } catch let error as StackDocError {
            throw StoreError.corrupt(path, "document '\(document)': \(error.message)")
        }
    }

    /// Throws when a stored setting is outside the rules (the offset only has to be finite).
    static func check(settings s: DocumentSettings, document: String, path: String) throws {
        do {
            try Validation.check(s)
        } catch let error as StackDocError {
            throw StoreError.corrupt(path, "document '\(document)': \(error.message)")
        }
    }
}
