/**
 * Loads `services/<name>.service.(ts|js)` for the selected service names (the `SERVICES` env; all when unset).
 * A name whose file does not exist yet is skipped when loading "all" (its routes answer 501) and is an error
 * when named explicitly.
 */
import { TypedError } from "../domain/errors";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isServiceName, SERVICE_NAMES, type ServiceName } from "./service-names";
import type { AnyServiceSchema, ServiceDeps, ServiceModuleExport } from "./service-deps";

export class ServiceLoadError extends TypedError<"SERVICE_LOAD_FAILED"> {
  override readonly name = "ServiceLoadError";
  constructor(message: string) {
    super("SERVICE_LOAD_FAILED", message);
  }
}

export interface LoadedServices {
  schemas: AnyServiceSchema[];
  loaded: ServiceName[];
  /** Known services with no file yet (only when loading all). */
  notBuilt: ServiceName[];
}

/** Path of a service's file, or null when it is not built yet. */
export function serviceFile(servicesDir: string, name: ServiceName): string | null {
  for (const ext of [".service.ts", ".service.js"]) {
    const file = join(servicesDir, name + ext);
    if (existsSync(file)) return file;
  }
  return null;
}

/** Requires each selected service file and builds its schema. @throws ServiceLoadError */
export function loadServices(selected: readonly string[] | null, deps: ServiceDeps, servicesDir: string): LoadedServices {
  const unknown = (selected ?? []).filter((n) => !isServiceName(n));
  if (unknown.length > 0)
    throw new ServiceLoadError(`SERVICES names unknown service(s) ${unknown.join(", ")}; known: ${SERVICE_NAMES.join(", ")}.`);
  const names = (selected ?? SERVICE_NAMES).filter(isServiceName);
  const out: LoadedServices = { schemas: [], loaded: [], notBuilt: [] };
  for (const name of names) {
    const file = serviceFile(servicesDir, name);
    if (file === null) {
      if (selected !== null) throw new ServiceLoadError(`SERVICES names '${name}', but services/${name}.service.ts is not built yet.`);
      out.notBuilt.push(name);
      continue;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(file) as { default?: ServiceModuleExport };
    const exported = mod.default;
    if (exported === undefined) throw new ServiceLoadError(`${file} has no default export.`);
    const schema = typeof exported === "function" ? exported(deps) : exported;
    if (schema.name !== name) {
      throw new ServiceLoadError(`${file} defines service '${String(schema.name)}'; the file name says '${name}'.`);
    }
    out.schemas.push(schema);
    out.loaded.push(name);
  }
  return out;
}
