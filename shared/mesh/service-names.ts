/** Every service a process can run: the core's (shared/config/service-names.ts) and the extensions' (their registry). */
import { CORE_SERVICE_NAMES } from "../config/service-names";
import { EXTENSIONS } from "../extensions/registry";

export const SERVICE_NAMES = [...CORE_SERVICE_NAMES, ...EXTENSIONS.map((m) => m.service)] as const;

export type ServiceName = (typeof CORE_SERVICE_NAMES)[number] | (typeof EXTENSIONS)[number]["service"];

/** Type guard for a string read from the environment or a route table. */
export function isServiceName(name: string): name is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(name);
}
