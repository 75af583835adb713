/**
 * Loads operator plugins from a folder (PLUGINS_DIR): every `.js`/`.cjs` file exports one plugin object or an array
 * of them (CommonJS `module.exports` or `exports.default`). A file that does not describe valid plugins fails the
 * start-up with a message naming it: a silently ignored plugin is worse than a clear error.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { IndexerPlugin, PluginKind } from "./plugin-types";

const KINDS: readonly PluginKind[] = ["filter", "pre-action", "post-action", "event-handler", "scheduler"];

function validate(candidate: unknown, file: string): IndexerPlugin {
  const p = candidate as Partial<IndexerPlugin> & Record<string, unknown>;
  const where = `plugin file ${file}`;
  if (!p || typeof p !== "object") throw new Error(`${where}: export a plugin object or an array of them`);
  if (typeof p.name !== "string" || p.name === "") throw new Error(`${where}: plugin needs a non-empty "name"`);
  if (!KINDS.includes(p.kind as PluginKind))
    throw new Error(`${where}: plugin "${p.name}" has kind "${String(p.kind)}", expected one of ${KINDS.join(", ")}`);
  const needs: Record<PluginKind, string> = {
    filter: "keep",
    "pre-action": "run",
    "post-action": "run",
    "event-handler": "handle",
    scheduler: "run",
  };
  const fn = needs[p.kind as PluginKind];
  if (typeof p[fn] !== "function") throw new Error(`${where}: ${String(p.kind)} plugin "${p.name}" needs a function "${fn}"`);
  if (p.kind === "pre-action")
    for (const hook of ["flush", "discard", "rollback"])
      if (p[hook] !== undefined && typeof p[hook] !== "function")
        throw new Error(`${where}: pre-action "${p.name}" has a "${hook}" that is not a function`);
  if (p.kind === "event-handler" && !Array.isArray(p.events))
    throw new Error(`${where}: event-handler "${p.name}" needs an "events" array`);
  if (p.kind === "scheduler" && !(typeof p.intervalMs === "number" && p.intervalMs >= 100)) {
    throw new Error(`${where}: scheduler "${p.name}" needs "intervalMs" ≥ 100`);
  }
  return { language: "javascript", ...(p as IndexerPlugin) };
}

export function loadPluginsFromDir(dir: string): IndexerPlugin[] {
  const abs = resolve(dir);
  const files = readdirSync(abs)
    .filter((f) => f.endsWith(".js") || f.endsWith(".cjs"))
    .sort();
  const plugins: IndexerPlugin[] = [];
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(join(abs, file)) as { default?: unknown };
    const exported = mod && typeof mod === "object" && "default" in mod ? mod.default : mod;
    for (const candidate of Array.isArray(exported) ? exported : [exported]) plugins.push(validate(candidate, file));
  }
  return plugins;
}
