/**
 * The project's Moleculer service names (one convention, decided once):
 * - services are NOT versioned: the action id is `<service>.<action>` (e.g. `verifier.byHash`), and the
 *   public HTTP version lives only in the gateway path `/api/v1`;
 * - names are kebab-case nouns, and each lives in `services/<name>.service.ts`;
 * - a process runs the services named in `SERVICES` (all of them when unset).
 * These are the core's services; each extension names its own in the extension registry, and
 * shared/mesh/service-names.ts joins the two.
 */
export const CORE_SERVICE_NAMES = [
  "gateway",
  "tx-builder",
  "calendar",
  "submitter",
  "verifier",
  "user-state",
  "credential",
  "library",
  "indexer",
  "stats",
  "plugin-monitor",
  "events",
] as const;

/** A service name as `SERVICES` may write it: kebab-case. Whether such a service exists is the loader's check. */
export const SERVICE_NAME_SYNTAX = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
