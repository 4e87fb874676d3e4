// Layout's public API includes the flex engine's geometry (`Edges`, `Size`, `Rect`) and tree
// (`FlexTree`): `import Layout` brings them in. The order-statistics tree (`OrderStatistics`)
// is how Layout keeps its child orders, imported internally: its treap and seeded generator
// are no part of Layout's API (a test that draws from `SplitMix64` imports OrderStatistics).
@_exported import FlexLayout
