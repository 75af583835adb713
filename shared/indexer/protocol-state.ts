/**
 * Current protocol state as the indexer has confirmed it, read from the latest fact per key (fact-log.ts):
 * live states and bootstrap datums (not burned), the proxy pointer, and the library's reference scripts.
 * Builders check the outputs named here against the chain before spending them (the indexer may lag a block).
 */
import type { BootstrapInfo, LibraryEntry, PointerInfo, StateInfo } from "../records/protocol-records";
import type { FactLog } from "./fact-log";
import type { ProtocolFact } from "./protocol-decoder";

export async function liveStates(log: FactLog, filter: { owner?: string; id?: string } = {}): Promise<StateInfo[]> {
  // Every build asks for one owner's states: read only that owner's keys, not every state ever made.
  const keys =
    filter.id !== undefined
      ? [`state:${filter.id}`]
      : filter.owner !== undefined
        ? await log.keysWhere({ "fact.owner": filter.owner, "fact.type": { $in: ["state.minted", "state.updated"] } })
        : undefined;
  const latest = await log.current(keys ? { in: keys } : { typeIn: ["state.minted", "state.updated", "state.burned"] });
  return latest
    .map((r) => r.fact)
    .filter((f): f is StateInfo => f?.type === "state.minted" || f?.type === "state.updated")
    .filter((f) => (filter.owner === undefined || f.owner === filter.owner) && (filter.id === undefined || f.stateId === filter.id));
}

export async function liveBootstraps(log: FactLog, filter: { name?: string } = {}): Promise<BootstrapInfo[]> {
  const latest = await log.current({ typeIn: ["bootstrap.minted", "bootstrap.burned"] });
  return latest
    .map((r) => r.fact)
    .filter((f): f is BootstrapInfo => f?.type === "bootstrap.minted")
    .filter((f) => filter.name === undefined || f.name === filter.name);
}

export async function currentPointer(log: FactLog): Promise<PointerInfo | null> {
  const [latest] = await log.current({ in: ["pointer"] });
  return latest?.fact?.type === "pointer.set"
    ? { scriptPointer: latest.fact.scriptPointer, owner: latest.fact.owner, outRef: latest.fact.outRef }
    : null;
}

/** Reference-script UTxOs the library administrator deployed, oldest first (spent ones included: check the chain). */
export async function libraryEntries(log: FactLog): Promise<LibraryEntry[]> {
  const rows = await log.current({ typeIn: ["library.deployed"] });
  return rows
    .filter((r) => r.fact?.type === "library.deployed")
    .map((r) => {
      const f = r.fact as Extract<ProtocolFact, { type: "library.deployed" }>;
      return { scriptHash: f.scriptHash, language: f.language, outRef: f.outRef, slot: r.slot };
    })
    .sort((a, b) => a.slot - b.slot);
}
