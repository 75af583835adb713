// Devnet blocks: identity (a digest over ancestor, height, slot and transaction ids) and the Ogmios Block<Praos> JSON.
import type { DecodedTransaction } from "./decoded-transaction";
import { devnetDigest, fromHex } from "./ledger-digest";
import { projectTransaction } from "./ogmios-projection";
import type { OgmiosBlock, OgmiosTransaction } from "./ogmios-types";
import { LEDGER_PARAMETERS } from "./protocol-parameters";

export interface BlockHeader {
  height: number;
  slot: number;
  id: string;
  ancestor: string | "genesis";
}

/** The id of a block (devnet-specific: there is no real header to hash). */
export function blockId(ancestor: string | "genesis", height: number, slot: number, txIds: readonly string[]): string {
  const numbers = Buffer.alloc(16);
  numbers.writeBigUInt64BE(BigInt(height), 0);
  numbers.writeBigUInt64BE(BigInt(slot), 8);
  const parent = ancestor === "genesis" ? Buffer.from("genesis") : Buffer.from(fromHex(ancestor));
  return devnetDigest(Buffer.concat([parent, numbers, ...txIds.map((id) => Buffer.from(fromHex(id)))]));
}

// A fixed, obviously-fake issuer: the devnet has no stake pools, but Block<Praos> requires one.
const ISSUER = {
  verificationKey: "00".repeat(32),
  vrfVerificationKey: "00".repeat(32),
  operationalCertificate: { count: 0, kes: { period: 0, verificationKey: "00".repeat(32) } },
  leaderValue: {},
};

/** The Ogmios JSON of a block. */
export function projectBlock(header: BlockHeader, txs: readonly DecodedTransaction[]): OgmiosBlock {
  const transactions: OgmiosTransaction[] = txs.map((tx) => projectTransaction(tx.fixed, tx.id, true));
  return {
    type: "praos",
    era: "conway",
    id: header.id,
    ancestor: header.ancestor,
    height: header.height,
    slot: header.slot,
    size: { bytes: txs.reduce((n, tx) => n + tx.bytes.length, 0) },
    protocol: { version: { ...LEDGER_PARAMETERS.protocolVersion } },
    issuer: ISSUER,
    transactions,
  } as unknown as OgmiosBlock;
}
