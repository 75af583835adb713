/**
 * Checks a proof's anchoring against a chain, through the Ogmios protocol (docs/merkle-batches.md#checking-against-a-chain).
 * Ogmios serves no block by id, so the check asks chain-sync for an intersection at the proof's `previousBlock`
 * (the node answers only if that point is on its selected chain) and then for the next block: on a chain, the block
 * after a point is unique, so that block is the proof's block exactly when its id, slot and height are the
 * proof's, and its transaction list then says whether the transaction is in it. The transaction's content is bound
 * to its id offline (anchor-transaction.ts), so id, block and chain together prove the root anchored there.
 */
import type { Block, Origin, Point, Tip } from "../chain/types";
import type { ChainClient } from "../chain/chain-client";
import { LOWER_HEX_PATTERNS } from "../domain/hex";

/** `unreachable`: the chain could not be asked, so nothing was learned about the proof. */
export type ChainAnchorCheck = { valid: true; confirmations: number } | { valid: false; reason: string; unreachable?: true };

type Outcome = { block: Block; tip: Tip | Origin } | { none: true };

const tipHeight = (tip: Tip | Origin): number => (tip === "origin" ? 0 : Number(tip.height));

/** The point a proof names as the block before its own, or a reason why it names none. */
function previousPointOf(proof: Record<string, unknown>): { point: Point | Origin } | { reason: string } {
  const prev = proof["previousBlock"];
  if (prev === "origin") return { point: "origin" };
  if (prev === null || typeof prev !== "object")
    return { reason: "the proof names no previousBlock (the service's chain feed carried no transaction CBOR)" };
  const { slot, id } = prev as Record<string, unknown>;
  if (typeof slot !== "number" || !Number.isSafeInteger(slot) || slot < 0 || typeof id !== "string" || !LOWER_HEX_PATTERNS.hash32.test(id))
    return { reason: 'previousBlock must be "origin" or { slot, id }' };
  return { point: { slot, id } };
}

/**
 * Whether the chain that `chain` follows holds the proof's block after `previousBlock`, with the proof's
 * transaction in it. Never throws: an unreachable chain is a reason too.
 */
export async function checkAnchorOnChain(
  chain: Pick<ChainClient, "chainSync">,
  proof: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<ChainAnchorCheck> {
  const named = previousPointOf(proof);
  if ("reason" in named) return { valid: false, reason: named.reason };
  const previous = named.point;
  const { blockHash, slot, blockNumber, transactionHash } = proof;
  if (typeof blockHash !== "string" || typeof transactionHash !== "string" || typeof slot !== "number" || typeof blockNumber !== "number")
    return { valid: false, reason: "the proof needs blockHash, blockNumber, slot and transactionHash" };

  let settle: (o: Outcome) => void = () => undefined;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  let sub: Awaited<ReturnType<ChainClient["chainSync"]>> | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    sub = await chain.chainSync(
      [previous],
      {
        // The first answer rolls back to the intersection; a tip at that very point means no block follows it.
        rollBackward: (_point, tip) => {
          if (tip === "origin" || (previous !== "origin" && tip.id === previous.id)) settle({ none: true });
        },
        rollForward: (block, tip) => settle({ block, tip }),
      },
      { inFlight: 1 },
    );
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
    const got = await Promise.race([outcome, timeout, sub.done.then(() => "timeout" as const)]);
    if (got === "timeout")
      return { valid: false, reason: `the chain sent no block after previousBlock within ${timeoutMs} ms`, unreachable: true };
    if ("none" in got) return { valid: false, reason: "the chain has no block after previousBlock: the anchoring block is not on it" };
    const b = got.block as Block & { slot?: number; height?: number; transactions?: { id: string }[] };
    if (b.id !== blockHash)
      return { valid: false, reason: `the chain's block after previousBlock is ${b.id}, not the proof's block ${blockHash}` };
    if (Number(b.slot) !== slot || Number(b.height) !== blockNumber)
      return {
        valid: false,
        reason: `the chain's block ${b.id} is at slot ${b.slot}, height ${b.height}, not the proof's slot ${slot}, height ${blockNumber}`,
      };
    if (!(b.transactions ?? []).some((t) => t.id === transactionHash))
      return { valid: false, reason: `the chain's block ${b.id} does not hold the transaction ${transactionHash}` };
    return { valid: true, confirmations: tipHeight(got.tip) - blockNumber + 1 };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const notFound = (err as { type?: string }).type === "INTERSECTION_NOT_FOUND";
    return notFound
      ? { valid: false, reason: "the chain does not hold previousBlock: the anchoring block is not on it" }
      : { valid: false, reason: `the chain could not be asked: ${message}`, unreachable: true };
  } finally {
    clearTimeout(timer);
    await sub?.close().catch(() => undefined);
  }
}
