import Foundation
import PackagePlugin

/// Build-tool plugin: turns the package's `migrations/NNNN_name.sql` files into Swift string
/// literals (`EmbeddedMigrations.all`; `migrations/postgresql/` into `EmbeddedMigrations.postgreSQL`) compiled into the target, so the binary never reads the
/// source tree at run time.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let dir = context.package.directoryURL.appending(path: "migrations")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        let inputs = names.filter { $0.hasSuffix(".sql") }.sorted().map { dir.appending(path: $0) }
        // The PostgreSQL backend's own migrations (`EmbeddedMigrations.postgreSQL`).
        let pgDir = dir.appending(path: "postgresql")
        let pgNames = (try? FileManager.default.contentsOfDirectory(atPath: pgDir.path)) ?? []
        let pgInputs = pgNames.filter { $0.hasSuffix(".sql") }.sorted().map { pgDir.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) SQL migrations",
                executable: try context.tool(named: "embed-migrations").url,
                arguments: [output.path] + inputs.map(\.path) + ["--postgresql"] + pgInputs.map(\.path),
                inputFiles: inputs + pgInputs,
                outputFiles: [output]
            ),
        ]
    }
}
