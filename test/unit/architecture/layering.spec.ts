/**
 * The layering of docs/architecture.md#layering, checked against the code: the table in that section is read as it
 * stands (layers top to bottom, each with its modules in backticks), every relative import of the source files is
 * resolved to the module it lands in, and an import from a lower layer into a higher one fails the test, as does an
 * import from one extension into another (`shared/extensions/<name>/`) and a source file no layer names. The doc is
 * the rule: move a module, and the table must say where it went.
 */
import { expect } from "chai";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(__dirname, "..", "..", "..");
/** Source trees whose files must sit in a layer (onchain/ and web/ are worlds of their own, with their own rules). */
const CHECKED = ["services", "scripts", "shared"];
/** Folders outside the layers on purpose (see the doc's note under the table). */
const APART = ["shared/devnet/"];

interface Layer {
  name: string;
  modules: string[];
}

function layersOfDoc(): Layer[] {
  const doc = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
  const lines = doc.slice(doc.indexOf("### Layering")).split("\n");
  // The section's first table only: the tables further down (the repository layout) name modules too.
  const start = lines.findIndex((l) => l.startsWith("|"));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("|"));
  const rows = lines.slice(start, end === -1 ? undefined : end);
  return rows
    .slice(2) // header and separator
    .map((row) => row.split("|").map((c) => c.trim()))
    .map((cells) => ({ name: cells[1]!, modules: [...cells[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) }))
    .filter((l) => l.modules.length > 0);
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The relative imports of a file (static imports, exports from, and dynamic imports of literals). */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);
  return found.map((spec) => {
    const base = relative(ROOT, resolve(ROOT, dirname(file), spec));
    for (const candidate of [`${base}.ts`, join(base, "index.ts"), base]) if (existsSync(join(ROOT, candidate))) return candidate;
    return base;
  });
}

describe("architecture: imports point down the layers of docs/architecture.md", () => {
  const layers = layersOfDoc();
  const placeOf = (file: string): { layer: number; module: string } | undefined => {
    let best: { layer: number; module: string } | undefined;
    layers.forEach((l, layer) => {
      for (const m of l.modules) {
        const prefix = m.endsWith("/") ? m : `${m}`;
        if ((file === prefix || file.startsWith(prefix)) && (!best || prefix.length > best.module.length)) best = { layer, module: prefix };
      }
    });
    return best;
  };
  const files = CHECKED.flatMap(sourceFiles);

  it("reads a layering table with modules in it", () => {
    expect(layers.length).to.be.at.least(5);
  });

  it("places every source file in a layer", () => {
    const unplaced = files.filter((f) => !APART.some((a) => f.startsWith(a)) && placeOf(f) === undefined);
    expect(unplaced, "files no layer of the table names").to.deep.equal([]);
  });

  it("has no import from a lower layer into a higher one", () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = placeOf(file);
      if (!from) continue;
      for (const target of relativeImports(file)) {
        const to = placeOf(target);
        if (to && to.layer < from.layer) upward.push(`${file} (${layers[from.layer]!.name}) → ${target} (${layers[to.layer]!.name})`);
      }
    }
    expect(upward).to.deep.equal([]);
  });

  it("has no import from one extension into another", () => {
    const extensionOf = (f: string): string | undefined => /^shared\/extensions\/([^/]+)\//.exec(f)?.[1];
    const crossing: string[] = [];
    for (const file of files) {
      const own = extensionOf(file);
      if (own === undefined) continue;
      for (const target of relativeImports(file)) {
        const other = extensionOf(target);
        if (other !== undefined && other !== own && !SHARED_EXTENSION_FOLDERS.includes(other)) crossing.push(`${file} → ${target}`);
      }
    }
    expect(crossing).to.deep.equal([]);
  });
});

/** Folders of `shared/extensions/` every extension may use (the kit), as opposed to an extension of its own. */
const SHARED_EXTENSION_FOLDERS = ["list-kit", "kit"];
