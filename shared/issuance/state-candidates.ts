/**
 * The caller's states as they will be spent: the indexer's confirmed states, overridden by the newest pending
 * state outputs (a state updated or forked by a submitted, unconfirmed transaction), so planning and fee
 * decisions use the datum actually spent (docs/decisions.md#state-selection).
 */
import type { OgmiosUtxo } from "../csl/utxo";
import { BoundedMemo } from "../csl/memo";
import type { StateInfo } from "../records/protocol-records";
import { dataFromCborHex, decodeStateDatum, type ForkTerms, type StateDatum } from "../protocol";
import type { StateTerms } from "../domain/issuance-plan";
import type { Deployment, IssuanceEnv } from "./issuance-env";

export interface StateCandidate {
  datum: StateDatum;
  /** the pending output carrying it, when a submitted transaction produced it */
  pending?: OgmiosUtxo;
  /** the confirmed output, from the indexer */
  outRef?: { txHash: string; index: number };
}

const utf8Hex = (s: string): string => Buffer.from(s, "utf8").toString("hex");

/** The fee terms and ttl a state copies from its bootstrap, from an indexer record (amounts as decimal strings). */
export function forkTermsOf(r: Pick<StateInfo, "fee" | "feeInterval" | "feeReceivers" | "ttl">): ForkTerms {
  return { fee: BigInt(r.fee), feeInterval: BigInt(r.feeInterval), feeReceivers: r.feeReceivers, ttl: BigInt(r.ttl) };
}

function datumOfStateInfo(s: StateInfo): StateDatum {
  return {
    id: s.stateId,
    owner: s.owner,
    ...forkTermsOf(s),
    countdown: BigInt(s.countdown),
    certificateDataHash: s.certificateDataHash,
    batchSize: BigInt(s.batchSize),
    bootstrapDatumName: utf8Hex(s.bootstrapName),
    keepAsOracle: s.keepAsOracle,
  };
}

/** State datums a process remembers decoded, by their CBOR (each build reads its state's, often several). */
const STATE_DATUMS_KEPT = 1_024;

const stateDatums = new BoundedMemo<StateDatum | null>(STATE_DATUMS_KEPT, (cbor) => {
  try {
    return decodeStateDatum(dataFromCborHex(cbor));
  } catch {
    return null;
  }
});

/** The state datum an output carries inline, decoded (a shared, frozen answer), or undefined. */
export function stateDatumOf(u: OgmiosUtxo): StateDatum | undefined {
  if (!u.datum) return undefined;
  return stateDatums.get(u.datum) ?? undefined;
}

/**
 * The owner's states that can be spent; `confirmed` are the indexer's states of the owner when the caller already
 * read them (read from the indexer otherwise).
 */
export async function loadStateCandidates(
  env: IssuanceEnv,
  deployment: Deployment,
  owner: string,
  confirmedStates?: readonly StateInfo[],
): Promise<StateCandidate[]> {
  const proxyAddress = deployment.scripts.proxy.address;
  const [confirmed, pendingAtEnterprise] = await Promise.all([
    confirmedStates ?? env.source.states({ owner }),
    env.registry.spendable(proxyAddress, [], owner),
  ]);
  // A state at a proxy address with a stake part is updated where it is, so its pending successor is there too.
  const otherAddresses = [...new Set(confirmed.flatMap((s) => (s.address !== proxyAddress ? [s.address] : [])))];
  const pendingAtProxy = [
    ...pendingAtEnterprise,
    ...(await Promise.all(otherAddresses.map((a) => env.registry.spendable(a, [], owner)))).flat(),
  ];
  const byId = new Map<string, StateCandidate>();
  for (const s of confirmed) byId.set(s.stateId, { datum: datumOfStateInfo(s), outRef: s.outRef });
  for (const u of pendingAtProxy) {
    const d = stateDatumOf(u);
    if (d && d.owner === owner) byId.set(d.id, { datum: d, pending: u });
  }
  return [...byId.values()].filter((c) => !c.datum.keepAsOracle);
}

export function termsOf(c: StateCandidate): StateTerms {
  const d = c.datum;
  return {
    id: d.id,
    owner: d.owner,
    countdown: d.countdown,
    ttl: d.ttl,
    batchSize: d.batchSize,
    fee: d.fee,
    feeInterval: d.feeInterval,
    feeReceivers: d.feeReceivers,
    bootstrapName: Buffer.from(d.bootstrapDatumName, "hex").toString("utf8"),
  };
}
