/** Rebuilding fractionized builds that lost their list entry: the generic rebuilds (shared/sorted-list/rebuild.ts). */
import {
  rebuildBeaten as rebuildBeatenList,
  rebuildLogged as rebuildLoggedList,
  type ListBuildLog,
  type RebuildPorts,
  type Rebuilder,
  type Rebuilt,
} from "../sorted-list";
import { handleFractionizedBuild, type FractionizedEnv } from "./build";

export type { RebuildPorts, Rebuilt };

export function fractionizedRebuilder(env: FractionizedEnv): Rebuilder {
  return { build: (body) => handleFractionizedBuild(env, body), expireInflight: () => env.issuance.registry.expire() };
}

export const rebuildLogged = (env: FractionizedEnv, log: ListBuildLog, txId: string): Promise<Rebuilt | undefined> =>
  rebuildLoggedList(fractionizedRebuilder(env), log, txId);

export const rebuildBeaten = (env: FractionizedEnv, log: ListBuildLog, ports: RebuildPorts): Promise<string[]> =>
  rebuildBeatenList(fractionizedRebuilder(env), log, ports);
