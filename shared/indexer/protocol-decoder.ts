/**
 * Decodes the protocol's transactions (as Ogmios chain-sync JSON) into facts the projections store
 * (docs/protocol.md#indexer-decoding describes what the reference extracts; we add burns, pointer changes and library checks).
 *
 * - The state redeemer is found through the withdrawal from a known state script's reward address; its redeemer
 *   index is that reward account's position among the transaction's withdrawals in ledger order (script
 *   credentials before key credentials, then hash bytes — not address-byte order).
 * - Only outputs holding a proxy-policy token are read as state/bootstrap/pointer outputs: such tokens can only
 *   be minted through the validators, so their datums are trustworthy. Outputs are matched by payment credential,
 *   as the validators do: a state, bootstrap or pointer at the proxy script with any stake part is still one.
 * - Library deployments count only when the library administrator signed the transaction (anyone can pay to the
 *   library address; only the administrator's outputs are the service's).
 * Facts are plain JSON (bigints as decimal strings) so they cross NATS unchanged. The extensions' facts are decoded
 * by the FactDecoders the indexer is given (its service passes those of the extension registry); this module names
 * no extension.
 */
import type { Transaction, TransactionOutput } from "@cardano-ogmios/schema";
import type { OutRef } from "../domain/out-ref";
import { TLOG_CHECKPOINT_SCHEME } from "../transparency-log/log-entries";
import { MERKLE_SCHEME } from "../merkle/merkle-tree";
import type { BootstrapInfo, PointerInfo, StateInfo } from "../records/protocol-records";
import { keyHashOfPublicKey, paymentCredentialOf, rewardCredentialOf } from "../csl/address";
import { sortRewardAccounts } from "../csl/redeemer-pointers";
import {
  dataFromCborHex,
  decodeBootstrapDatum,
  decodeProxyDatum,
  decodeStateDatum,
  decodeStateRedeemer,
  joinMetadataChunks,
  scriptHashOf,
  type StatePurpose,
} from "../protocol";

/** The algorithms of roots the service answers proofs under: a Merkle batch root, a transparency-log checkpoint root. */
const ANCHORED_ROOT_SCHEMES = new Set<string>([MERKLE_SCHEME, TLOG_CHECKPOINT_SCHEME]);

export interface ProtocolView {
  proxyPolicyId: string;
  proxyAddress: string;
  pointerTokenName: string;
  /** The state scripts trusted at the transaction's slot: the one the proxy pointer named then (state-script-trust.ts). */
  stateScriptHashes: ReadonlySet<string>;
  libraryAddress: string;
  libraryAdmin: string;
}

/**
 * The facts of the extensions, by extension. An extension's decoder module adds its own facts here
 * (`declare module …/protocol-decoder { interface ExtensionFacts { <name>: <its facts> } }`), so the fact log keeps
 * one discriminated union of facts while the indexer names no extension.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the extensions' module augmentations
export interface ExtensionFacts {}
export type ExtensionFact = ExtensionFacts[keyof ExtensionFacts];

/** An extension's decoding of its transactions into facts of the log, given to the indexer. */
export interface FactDecoder {
  /** the script hashes (policies, payment credentials) of its transactions: the indexer keeps those as relevant */
  readonly scriptHashes: readonly string[];
  /** its facts of one transaction, and what could not be decoded */
  decode(tx: Transaction): { facts: ExtensionFact[]; errors: string[] };
  /** the key of one of its facts: the latest fact per key is the current state of what it is about */
  keyOf(fact: ExtensionFact): string | null;
}

export type ProtocolFact =
  | {
      type: "certificate.issued";
      /** position in the redeemer's certificate list */
      position: number;
      hash: string;
      algorithm: string;
      issuer: string;
      metadata: string;
      stateId: string | null;
      bootstrapName: string | null;
      purpose: StatePurpose;
      /**
       * Merkle batch and log checkpoint roots only (ANCHORED_ROOT_SCHEMES), when chain-sync carries transaction CBOR: the signed
       * transaction as on chain, the point of the block before it, and the language views that give its
       * script_data_hash (both added by the indexer), for self-contained proofs.
       */
      anchor?: { transactionCbor: string; previousBlock?: { slot: number; id: string } | "origin"; languageViews?: string };
    }
  | StateInfo
  | { type: "state.burned"; stateId: string }
  | BootstrapInfo
  | { type: "bootstrap.burned"; name: string; tokenName: string }
  | ({ type: "pointer.set" } & PointerInfo)
  | { type: "library.deployed"; scriptHash: string; language: string; cbor: string; outRef: OutRef }
  | ExtensionFact;

/** The decoded facts of one transaction, and what could not be decoded (kept for the plugin metrics). */
export interface DecodedTransaction {
  facts: ProtocolFact[];
  errors: string[];
}

const utf8 = (hex: string): string => Buffer.from(hex, "hex").toString("utf8");

/**
 * Whether an output address is the proxy's: its payment credential is the proxy script, whatever its stake part
 * (the validators check only the payment credential, so protocol outputs may carry any stake credential).
 */
export function isProxyAddress(address: string, view: Pick<ProtocolView, "proxyAddress" | "proxyPolicyId">): boolean {
  if (address === view.proxyAddress) return true;
  if (view.proxyPolicyId === "") return false;
  try {
    const cred = paymentCredentialOf(address);
    return cred?.kind === "script" && cred.hash === view.proxyPolicyId;
  } catch {
    return false; // not a Shelley address (Byron), so not the proxy's
  }
}

function proxyAssets(out: TransactionOutput, policy: string): Record<string, bigint> {
  const v = out.value as unknown as Record<string, Record<string, bigint>>;
  return v[policy] ?? {};
}

function mintedUnder(tx: Transaction, policy: string): { minted: string[]; burned: string[] } {
  const m = (tx.mint as Record<string, Record<string, bigint>> | undefined)?.[policy] ?? {};
  const minted: string[] = [];
  const burned: string[] = [];
  for (const [name, qty] of Object.entries(m)) {
    if (BigInt(qty) > 0n) minted.push(name);
    else if (BigInt(qty) < 0n) burned.push(name);
  }
  return { minted, burned };
}

/** The state redeemer carried by the withdrawal from a known state script, if any. */
function stateRedeemerOf(tx: Transaction, view: ProtocolView) {
  const accounts = Object.keys(tx.withdrawals ?? {});
  if (accounts.length === 0 || !tx.redeemers) return undefined;
  const index = sortRewardAccounts(accounts).findIndex((a) => {
    const cred = rewardCredentialOf(a);
    return cred?.kind === "script" && view.stateScriptHashes.has(cred.hash);
  });
  if (index < 0) return undefined;
  const redeemer = tx.redeemers.find((r) => r.validator.purpose === "withdraw" && Number(r.validator.index) === index);
  return redeemer ? decodeStateRedeemer(dataFromCborHex(redeemer.redeemer)) : undefined;
}

function stateFact(type: "state.minted" | "state.updated", tx: Transaction, out: TransactionOutput, index: number) {
  const d = decodeStateDatum(dataFromCborHex(String(out.datum)));
  return {
    type,
    stateId: d.id,
    owner: d.owner,
    countdown: d.countdown.toString(),
    fee: d.fee.toString(),
    feeInterval: d.feeInterval.toString(),
    feeReceivers: [...d.feeReceivers],
    ttl: d.ttl.toString(),
    batchSize: d.batchSize.toString(),
    bootstrapName: utf8(d.bootstrapDatumName),
    certificateDataHash: d.certificateDataHash,
    keepAsOracle: d.keepAsOracle,
    outRef: { txHash: tx.id, index },
    address: out.address,
    lovelace: out.value.ada.lovelace.toString(),
  } satisfies ProtocolFact;
}

export function decodeProtocolTransaction(tx: Transaction, view: ProtocolView): DecodedTransaction {
  const facts: ProtocolFact[] = [];
  const errors: string[] = [];
  // A transaction whose scripts failed only moved its collateral: nothing of the protocol happened.
  if (tx.spends === "collaterals") return { facts, errors };

  const attempt = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      errors.push(`${tx.id}: ${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const policy = view.proxyPolicyId;
  const atProxy = tx.outputs
    .map((o, i) => ({ o, i }))
    .filter(({ o }) => Object.keys(proxyAssets(o, policy)).length > 0 && isProxyAddress(o.address, view));
  const holding = (name: string) => atProxy.find(({ o }) => (proxyAssets(o, policy)[name] ?? 0n) > 0n);

  attempt("state redeemer", () => {
    const redeemer = stateRedeemerOf(tx, view);
    if (!redeemer) return;
    const { minted, burned } = mintedUnder(tx, policy);

    switch (redeemer.purpose) {
      case "MINT_STATE":
      case "UPDATE_STATE": {
        const name =
          redeemer.purpose === "MINT_STATE"
            ? minted.find((n) => n !== view.pointerTokenName)
            : atProxy.flatMap(({ o }) => Object.keys(proxyAssets(o, policy))).find((n) => n !== view.pointerTokenName);
        const target = name ? holding(name) : undefined;
        if (target) {
          const fact = stateFact(redeemer.purpose === "MINT_STATE" ? "state.minted" : "state.updated", tx, target.o, target.i);
          facts.push(fact);
          // Only these two purposes check the certificates (non-empty hash, issuer signed), and only a transaction
          // that wrote a state commits to them: every other redeemer's certificates are not facts.
          redeemer.certificates.forEach((c, position) =>
            facts.push({
              type: "certificate.issued",
              position,
              hash: c.hash,
              algorithm: c.algorithm,
              issuer: c.issuer,
              metadata: joinMetadataChunks(c.extra),
              stateId: fact.stateId,
              bootstrapName: fact.bootstrapName,
              purpose: redeemer.purpose,
              // the transaction of a root whose proofs the service answers travels with them
              ...(ANCHORED_ROOT_SCHEMES.has(c.algorithm) && typeof tx.cbor === "string" ? { anchor: { transactionCbor: tx.cbor } } : {}),
            }),
          );
        }
        for (const b of burned) facts.push({ type: "state.burned", stateId: b });
        break;
      }
      case "BURN_STATE":
        for (const b of burned) facts.push({ type: "state.burned", stateId: b });
        break;
      case "MINT_BOOTSTRAP":
        for (const name of minted) {
          const target = holding(name);
          if (!target) continue;
          const d = decodeBootstrapDatum(dataFromCborHex(String(target.o.datum)));
          facts.push({
            type: "bootstrap.minted",
            name: utf8(d.tokenName),
            tokenName: d.tokenName,
            allowedCredentials: [...d.allowedCredentials],
            fee: d.fee.toString(),
            feeInterval: d.feeInterval.toString(),
            feeReceivers: [...d.feeReceivers],
            ttl: d.ttl.toString(),
            transactionLimit: d.transactionLimit.toString(),
            batchSize: d.batchSize.toString(),
            outRef: { txHash: tx.id, index: target.i },
          });
        }
        break;
      case "BURN_BOOTSTRAP":
        for (const b of burned) facts.push({ type: "bootstrap.burned", name: utf8(b), tokenName: b });
        break;
    }
  });

  const pointer = holding(view.pointerTokenName);
  if (pointer) {
    attempt("pointer datum", () => {
      const d = decodeProxyDatum(dataFromCborHex(String(pointer.o.datum)));
      facts.push({
        type: "pointer.set",
        scriptPointer: d.scriptPointer,
        owner: d.scriptOwner,
        outRef: { txHash: tx.id, index: pointer.i },
      });
    });
  }

  const toLibrary = tx.outputs.map((o, i) => ({ o, i })).filter(({ o }) => o.address === view.libraryAddress && o.script);
  if (toLibrary.length > 0) {
    attempt("library outputs", () => {
      const signedByAdmin = tx.signatories.some((s) => keyHashOfPublicKey(s.key) === view.libraryAdmin);
      if (!signedByAdmin) return;
      for (const { o, i } of toLibrary) {
        const script = o.script as { language: string; cbor?: string };
        // The protocol's scripts are all Plutus V3; anything else at the library is not ours to track.
        if (!script.cbor || script.language !== "plutus:v3") continue;
        facts.push({
          type: "library.deployed",
          scriptHash: scriptHashOf(script.cbor),
          language: script.language,
          cbor: script.cbor,
          outRef: { txHash: tx.id, index: i },
        });
      }
    });
  }
  return { facts, errors };
}
