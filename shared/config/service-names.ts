/**
 * The project's Moleculer service names (one convention, decided once):
 * - services are NOT versioned: the action id is `<service>.<action>` (e.g. `verifier.byHash`), and the
 *   public HTTP version lives only in the gateway path `/api/v1`;
 * - names are kebab-case nouns, and each lives in `services/<name>.service.ts`;
 * - a process runs the services named in `SERVICES` (all of them when unset).
 */
export const SERVICE_NAMES = [
  "gateway",
  "tx-builder",
  "calendar",
  "submitter",
  "verifier",
  "user-state",
  "credential",
  "connected-goods",
  "fractionized",
  "tokenizable",
  "library",
  "indexer",
  "stats",
  "plugin-monitor",
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Type guard for a string read from the environment or a route table. */
export function isServiceName(name: string): name is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(name);
}
