/// Store's public API includes `SnapshotImage` (the image format of snapshots, for tools that
/// read them), which lives in the pure `StoreFormat` target: re-exported so that `import Store`
/// keeps giving it. Everything else of StoreFormat is `package`, not visible outside.
@_exported import StoreFormat
