/// What differs between two versions of a document (`diff REF [REF]`): rows added, removed,
/// moved (old → new parent and index) and changed (field by field, in the saved format's names),
/// their frames in both versions, and the settings field by field.
public struct DocumentDiff: Hashable, Sendable {
    /// Where a row sits.
    public struct Place: Hashable, Sendable {
        /// The stack that holds the row (nil: the root stack).
        public var parent: RowID?
        /// The row's index among its stack's rows.
        public var index: Int
        /// The place at `index` in `parent` (nil: the root stack).
        public init(parent: RowID?, index: Int) {
            self.parent = parent
            self.index = index
        }
    }

    /// One field that differs: its path in the saved format (`grow`, `separator.color`,
    /// `defaults.insets`), the old and the new value (`.null` for an absent optional).
    public struct Field: Hashable, Sendable {
        /// The field's path in the saved format (`grow`, `separator.color`, `defaults.insets`).
        public var path: String
        /// The value in the old version (`.null` for an absent optional).
        public var old: JSONValue
        /// The value in the new version (`.null` for an absent optional).
        public var new: JSONValue
    }

    /// One row that differs.
    public struct Row: Hashable, Sendable {
        /// How the row differs.
        public enum Kind: String, Hashable, Sendable {
            /// Only in the new version.
            case added
            /// Only in the old version.
            case removed
            /// In both, with another place, config or frame.
            case changed
        }
        /// The row's id.
        public var id: RowID
        /// Added, removed or changed.
        public var kind: Kind
        /// Its place in the old version (nil where it does not exist).
        public var old: Place?
        /// Its place in the new version (nil where it does not exist).
        public var new: Place?
        /// True when it changed stacks or was moved within its stack.
        public var moved: Bool
        /// Its config fields that differ (every field for an added or removed row is left out).
        public var fields: [Field]
        /// Its frame in the old / new version, laid out at the same viewport (nil: hidden, absent,
        /// or not computed).
        public var oldFrame: Rect?
        /// Its frame in the new version (nil: hidden, absent, or not computed).
        public var newFrame: Rect?
    }

    /// The settings fields that differ.
    public var settings: [Field]
    /// The rows that differ, in the order they were found (see `compare`).
    public var rows: [Row]

    /// True when the two versions are the same (no settings and no rows differ).
    public var isEmpty: Bool { settings.isEmpty && rows.isEmpty }

    /// What a diff needs of one version: its settings and, for each candidate row, its config,
    /// place and frame. Taken from a document (and its layout) at one moment, so one document can
    /// be taken back in place and the other side read from it afterwards.
    public struct Side: Sendable {
        /// The version's settings.
        public var settings: DocumentSettings
        var rows: [RowID: (config: RowConfig, place: Place, frame: Rect?)] = [:]

        /// The candidates' state in `document`; frames from `layout` when given. O(k log n).
        public init(_ document: Document, candidates: [RowID], layout: LiveLayout?) {
            settings = document.settings
            for id in candidates where rows[id] == nil {
                guard let config = document.config(of: id), let parent = document.parent(of: id), let index = document.index(of: id) else { continue }
                rows[id] = (config, Place(parent: parent, index: index), layout?.row(id)?.frame)
            }
        }
    }

    /// Compares two versions on the rows of `candidates` only (the rows the changes between
    /// them touched: O(k) for k candidates on documents of any size). A row in `structural`
    /// (inserted, removed or moved by those changes) is reported as moved when its parent or
    /// index differs; any other row only when its parent differs (its index may shift with its
    /// siblings). Rows come in the order of `candidates`, each once.
    public static func compare(old: Side, new: Side, candidates: [RowID], structural: Set<RowID>) -> DocumentDiff {
        var rows: [Row] = []
        var seen = Set<RowID>()
        for id in candidates where seen.insert(id).inserted {
            let o = old.rows[id], n = new.rows[id]
            switch (o, n) {
            case (nil, nil):
                continue
            case let (nil, n?):
                rows.append(Row(id: id, kind: .added, old: nil, new: n.place, moved: false, fields: [], oldFrame: nil, newFrame: n.frame))
            case let (o?, nil):
                rows.append(Row(id: id, kind: .removed, old: o.place, new: nil, moved: false, fields: [], oldFrame: o.frame, newFrame: nil))
            case let (o?, n?):
                let moved = o.place.parent != n.place.parent || (structural.contains(id) && o.place.index != n.place.index)
                let fields = o.config == n.config ? [] : Self.fields(o.config.jsonMembers(stackRows: nil), n.config.jsonMembers(stackRows: nil))
                guard moved || !fields.isEmpty || o.frame != n.frame else { continue }
                rows.append(Row(id: id, kind: .changed, old: o.place, new: n.place, moved: moved, fields: fields, oldFrame: o.frame, newFrame: n.frame))
            }
        }
        let settings = old.settings == new.settings ? [] : fields(old.settings.jsonMembers, new.settings.jsonMembers)
        return DocumentDiff(settings: settings, rows: rows)
    }

    /// The members that differ, recursing into objects present on both sides (dotted paths).
    static func fields(_ old: [JSONMember], _ new: [JSONMember], prefix: String = "") -> [Field] {
        var out: [Field] = []
        var newByKey: [String: JSONValue] = [:]
        for m in new { newByKey[m.key] = m.value }
        var oldKeys = Set<String>()
        for m in old {
            oldKeys.insert(m.key)
            let n = newByKey[m.key] ?? .null
            guard m.value != n else { continue }
            if case let .object(om) = m.value, case let .object(nm) = n {
                out += fields(om, nm, prefix: prefix + m.key + ".")
            } else {
                out.append(Field(path: prefix + m.key, old: m.value, new: n))
            }
        }
        for m in new where !oldKeys.contains(m.key) && m.value != .null {
            out.append(Field(path: prefix + m.key, old: .null, new: m.value))
        }
        return out
    }
}
