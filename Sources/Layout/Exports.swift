// Layout's public API includes the flex engine's geometry (`Edges`, `Size`, `Rect`) and tree
// (`FlexTree`), and the order-statistics tree with its seeded generator (`SplitMix64`):
// `import Layout` brings them in.
@_exported import FlexLayout
@_exported import OrderStatistics
