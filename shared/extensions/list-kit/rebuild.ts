/**
 * Rebuilding a build that lost its list entry (docs/decisions.md#racing-extension-inserts): the same request is
 * built again against the list as it stands now (the record plus transactions in flight), so it chains off the
 * transaction that won. Two triggers: a submission refused because the entry is spent (the submitter asks, and
 * answers 409 with the replacement), and a block that consumed the entry a logged build spends (the service's
 * `chain.block` handler); either way the replacement is kept under the old transaction id.
 */
import { isUnknownInputsRejection } from "../../chain";
import { DomainError } from "../../domain/errors";
import type { TxHash } from "../../domain/hex";
import type { OutRef } from "../../domain/out-ref";
import { utxoKey, type OgmiosUtxo } from "../../csl/utxo";
import type { ListBuildLog } from "./build-log";

/** What a list extension's build handler answers (never throws). */
type ListBuildOutcome =
  | {
      readonly ok: true;
      readonly built: {
        readonly txId: string;
        readonly unsignedTransaction: string;
        readonly spends: OutRef | null;
        readonly policyId: string;
      };
    }
  | { readonly ok: false; readonly error: string };

/**
 * The extension's build of a request body, the registry whose expired transactions must not be chained on, and who
 * is told of each replacement (the service announces it: docs/events.md, `extension.rebuilt`).
 */
export interface Rebuilder {
  build(body: Record<string, unknown>): Promise<ListBuildOutcome>;
  expireInflight(): Promise<unknown>;
  onRebuilt?(rebuilt: { previousTransactionHash: string; transactionHash: string; unsignedTransaction: string; policyId: string }): void;
}

interface Rebuilt {
  readonly rebuiltTransaction: string;
  readonly policyId: string;
}

/** @returns undefined when the build is unknown (not ours, or too old) or cannot be built now */
export async function rebuildLogged(rebuilder: Rebuilder, log: ListBuildLog, txId: TxHash): Promise<Rebuilt | undefined> {
  const b = await log.find(txId);
  if (!b) return undefined;
  if (b.rebuilt) return { rebuiltTransaction: b.rebuilt, policyId: b.policyId };
  // transactions in flight past their lifetime (e.g. rolled back and dropped) must not be chained on
  await rebuilder.expireInflight();
  const out = await rebuilder.build(b.body);
  if (!out.ok) {
    // Not buildable any more (the key landed meanwhile, the node is exhausted, …): nothing to offer. A list the
    // indexer has not caught up with yet (PENDING_TRANSACTION) is tried again after the next block.
    if (out.error !== "PENDING_TRANSACTION") await log.forget(b.txId);
    return undefined;
  }
  await log.record(out.built.txId, b.body, out.built.spends, out.built.policyId);
  await log.setRebuilt(b.txId, out.built.unsignedTransaction);
  rebuilder.onRebuilt?.({
    previousTransactionHash: b.txId,
    transactionHash: out.built.txId,
    unsignedTransaction: out.built.unsignedTransaction,
    policyId: out.built.policyId,
  });
  return { rebuiltTransaction: out.built.unsignedTransaction, policyId: out.built.policyId };
}

/** What the block handler needs to know about the chain and the indexer. */
interface RebuildPorts {
  /** which of these outputs are unspent on chain */
  unspent(refs: readonly OutRef[]): Promise<Set<string>>;
  /** is this transaction on chain (indexed)? */
  confirmed(txId: string): Promise<boolean>;
  /** does the node's mempool hold this transaction? */
  inMempool(txId: string): Promise<boolean>;
}

/** Builds checked per block, oldest first. */
const MAX_CHECKED_PER_BLOCK = 50;

/**
 * After a block or a rollback: a logged build whose list entry is gone either landed itself (forgotten), or lost
 * the entry — to another transaction a block included, or because the transaction that made it was rolled back
 * and dropped — and is rebuilt. A build still in the mempool, or whose entry is still pending there, is left alone.
 * @returns the ids of the builds rebuilt
 */
export async function rebuildBeaten(rebuilder: Rebuilder, log: ListBuildLog, ports: RebuildPorts): Promise<string[]> {
  const candidates = await log.candidates(MAX_CHECKED_PER_BLOCK);
  if (candidates.length === 0) return [];
  const unspent = await ports.unspent(candidates.map((c) => c.spends!));
  const rebuilt: string[] = [];
  for (const c of candidates) {
    const ref = c.spends!;
    if (unspent.has(`${ref.txHash}#${ref.index}`)) continue;
    if (await ports.inMempool(c.txId)) continue; // submitted and alive
    if (await ports.confirmed(c.txId)) {
      await log.forget(c.txId);
      continue;
    }
    const madeOnChain = await ports.confirmed(ref.txHash);
    if (!madeOnChain && (await ports.inMempool(ref.txHash))) continue; // a pending output: nothing beat it yet
    if (await rebuildLogged(rebuilder, log, c.txId)) rebuilt.push(c.txId);
  }
  return rebuilt;
}

/** The ports from a chain client and the indexer's `transaction` lookup. */
export function chainRebuildPorts(
  chain: {
    utxosByOutputReferences(refs: readonly OutRef[]): Promise<unknown[]>;
    inMempoolAmong(ids: readonly string[]): Promise<Set<string>>;
  },
  indexed: (txId: string) => Promise<boolean>,
): RebuildPorts {
  return {
    unspent: async (refs) => new Set(((await chain.utxosByOutputReferences(refs)) as OgmiosUtxo[]).map(utxoKey)),
    confirmed: indexed,
    inMempool: async (id) => (await chain.inMempoolAmong([id])).has(id),
  };
}

/** Whether a submission was refused because an input it spends is taken: by a transaction in flight, or on chain. */
export function isInputTaken(err: unknown): boolean {
  const e = err as { type?: unknown; data?: Record<string, unknown> };
  return e.type === "INPUTS_IN_FLIGHT" || (e.type === "LEDGER_REJECTED" && isUnknownInputsRejection(e.data?.["code"]));
}

/**
 * The refusal of a submission whose list entry was taken, carrying the replacement built on the list as it is now
 * (409, docs/decisions.md#racing-extension-inserts): INPUTS_IN_FLIGHT keeps its type, the ledger's becomes ENTRY_TAKEN.
 */
export function refusalWithReplacement(err: unknown, rebuiltTransaction: string): DomainError {
  const e = err as { type?: unknown; message?: unknown; data?: Record<string, unknown> };
  const data = { ...(e.data ?? {}), rebuiltTransaction };
  return e.type === "INPUTS_IN_FLIGHT"
    ? new DomainError(
        "INPUTS_IN_FLIGHT",
        `${String(e.message)} A replacement built on top of it is in rebuiltTransaction: sign and submit that.`,
        data,
      )
    : new DomainError(
        "ENTRY_TAKEN",
        "Another transaction took the list entry this transaction spends. A replacement built on the list as it is now is in rebuiltTransaction: sign and submit that.",
        data,
      );
}
