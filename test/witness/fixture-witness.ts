/**
 * A real witness for the witness specs: the HTTP server of shared/witness on 127.0.0.1 with an embedded SQLite store
 * in a fresh directory, following the log of test/tlog/fixture-log.ts; and the requests a log sends it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore, type Store } from "../../shared/store";
import { consistencyProof } from "../../shared/tlog/rfc9162";
import { formatAddCheckpoint } from "../../shared/tlog/witness-protocol";
import { startWitnessServer, type RunningWitness, type WitnessServerOptions } from "../../shared/witness/witness-server";
import { createWitnessState, type WitnessState } from "../../shared/witness/witness-state";
import { ORIGIN, logVerifier, signedCheckpoint, witnessKeys } from "../tlog/fixture-log";
import type { MemoryTree } from "../tlog/memory-tree";

export const NOW = 1_700_000_000n;

export interface TestWitness extends RunningWitness {
  store: Store;
  state: WitnessState;
  dataDir: string;
  /** POSTs a body to `<url><prefix>add-checkpoint` */
  post(body: string): Promise<{ status: number; contentType: string; body: string }>;
  /** stops the server and closes the store */
  stop(): Promise<void>;
}

export async function startTestWitness(
  options: { dataDir?: string; prefix?: string; wrapState?: (s: WitnessState) => WitnessState } & Partial<WitnessServerOptions> = {},
): Promise<TestWitness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "witness-"));
  const store = await createStore({ dataDir });
  const state = createWitnessState(store);
  const running = await startWitnessServer({
    witnessKey: witnessKeys.signer,
    logs: new Map([[ORIGIN, [logVerifier]]]),
    nowSeconds: () => NOW,
    ...options,
    state: options.wrapState ? options.wrapState(state) : state,
  });
  const prefix = options.prefix ?? "/";
  const post = async (body: string) => {
    const res = await fetch(`${running.url}${prefix}add-checkpoint`, { method: "POST", body });
    return { status: res.status, contentType: res.headers.get("content-type") ?? "", body: await res.text() };
  };
  return {
    ...running,
    store,
    state,
    dataDir,
    post,
    stop: async () => {
      await running.close();
      await store.close();
    },
  };
}

/** The add-checkpoint body from `oldSize` to the checkpoint of `size` leaves of `tree` (proof from `proofTree`). */
export function addCheckpointBody(oldSize: number, size: number, tree: MemoryTree, proofTree = tree): string {
  return formatAddCheckpoint({
    oldSize,
    consistencyProof: oldSize === 0 || oldSize === size ? [] : consistencyProof(oldSize, size, proofTree.read),
    note: signedCheckpoint(tree, size),
  });
}

/** The note text (the checkpoint body) of a signed checkpoint. */
export const checkpointText = (note: string): string => `${note.split("\n\n")[0]}\n`;
