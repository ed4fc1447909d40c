/**
 * For the layer check only (`.dependency-cruiser.cjs`): Babel drops `import type` and `export type … from`
 * when it strips TypeScript, which would hide a layer that leans on another for its types. This turns each
 * into a bare `import "…"` first (on entering the program, before the TypeScript transform does), so the
 * edge stays in the graph.
 */
module.exports = ({ types: t }) => ({
  name: "keep-type-imports",
  visitor: {
    Program: {
      enter(program) {
        for (const path of program.get("body")) {
          const node = path.node;
          const typeOnly =
            (t.isImportDeclaration(node) &&
              (node.importKind === "type" || node.specifiers.every((s) => s.importKind === "type"))) ||
            (t.isExportNamedDeclaration(node) && node.source && node.exportKind === "type");
          if (typeOnly && node.specifiers.length > 0) path.replaceWith(t.importDeclaration([], node.source));
        }
      },
    },
  },
});
