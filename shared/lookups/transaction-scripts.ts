/**
 * What the script/datum/redeemer lookups (docs/api.md#lookups) need from one transaction, read from its Ogmios
 * JSON: the scripts it carries (witness scripts and reference scripts in outputs), its datums (inline in outputs
 * and in the witness set), its outputs (so later spends can be resolved to a script and datum) and its redeemers
 * with the script each one runs. Pure: resolving a spend needs the spent output, which the caller looks up.
 */
import { outRefKey } from "../domain/out-ref";
import type { Script, ScriptNative, Transaction } from "@cardano-ogmios/schema";
import { paymentCredentialOf, rewardCredentialOf } from "../csl/address";
import { datumHashOf } from "../csl/plutus-data";
import { nativeScriptFromOgmios } from "../csl/native-script";
import { plutusScriptHash, type PlutusLanguage } from "../csl/plutus-script";
import { sortRewardAccounts } from "../csl/redeemer-pointers";
import { withFreed } from "../csl/scope";

export type ScriptType = "timelock" | "plutusV1" | "plutusV2" | "plutusV3";

export interface SeenScript {
  hash: string;
  type: ScriptType;
  /** CBOR hex (Plutus: as carried on chain; native: the script's CBOR). */
  cbor: string;
  /** Native scripts only: cardano-cli style JSON. */
  json: unknown;
}

export interface SeenDatum {
  hash: string;
  cbor: string;
}

export interface SeenOutput {
  ref: string;
  address: string;
  datumHash: string | null;
  datum: string | null;
}

/** Redeemer tags as the lookups answer them (Yaci/Blockfrost names). */
export type RedeemerTag = "spend" | "mint" | "cert" | "reward" | "voting" | "proposing";

export interface SeenRedeemer {
  tag: RedeemerTag;
  index: number;
  /** Redeemer data, CBOR hex. */
  data: string;
  dataHash: string;
  mem: bigint;
  steps: bigint;
  /** The script it runs, when known from the transaction itself (mint, withdraw, publish). */
  scriptHash: string | null;
  /** Spend redeemers: the spent output reference `txid#index`. */
  spentRef: string | null;
}

export interface TransactionLookupData {
  scripts: SeenScript[];
  datums: SeenDatum[];
  outputs: SeenOutput[];
  redeemers: SeenRedeemer[];
}

const TAGS: Record<string, RedeemerTag> = {
  spend: "spend",
  mint: "mint",
  publish: "cert",
  withdraw: "reward",
  vote: "voting",
  propose: "proposing",
};
const PLUTUS_TYPES: Record<PlutusLanguage, ScriptType> = { "plutus:v1": "plutusV1", "plutus:v2": "plutusV2", "plutus:v3": "plutusV3" };

/** blake2b-256 of Plutus data as encoded (datum hash / redeemer data hash). */
export function plutusDataHash(cborHex: string): string {
  return datumHashOf(cborHex);
}

/** Ogmios native-script JSON → the cardano-cli JSON form Blockfrost and Yaci answer. */
export function nativeScriptCliJson(s: ScriptNative): unknown {
  switch (s.clause) {
    case "signature":
      return { type: "sig", keyHash: s.from };
    case "all":
      return { type: "all", scripts: s.from.map(nativeScriptCliJson) };
    case "any":
      return { type: "any", scripts: s.from.map(nativeScriptCliJson) };
    case "some":
      return { type: "atLeast", required: Number(s.atLeast), scripts: s.from.map(nativeScriptCliJson) };
    case "before":
      return { type: "before", slot: Number(s.slot) };
    case "after":
      return { type: "after", slot: Number(s.slot) };
  }
}

export function seenScript(script: Script, knownHash?: string): SeenScript {
  if (script.language === "native") {
    return withFreed((own) => {
      const csl = own(nativeScriptFromOgmios(script.json));
      return {
        hash: knownHash ?? own(csl.hash()).to_hex(),
        type: "timelock",
        cbor: script.cbor ?? csl.to_hex(),
        json: nativeScriptCliJson(script.json),
      };
    });
  }
  return {
    hash: knownHash ?? plutusScriptHash(script.cbor, script.language),
    type: PLUTUS_TYPES[script.language],
    cbor: script.cbor,
    json: null,
  };
}

const refKey = (txHash: string, index: number | bigint): string => outRefKey({ txHash, index: Number(index) });

/** Inputs in ledger order (transaction id bytes, then index): the spend-redeemer index order. */
function sortedInputs(tx: Transaction): string[] {
  return [...tx.inputs]
    .sort((a, b) =>
      a.transaction.id < b.transaction.id ? -1 : a.transaction.id > b.transaction.id ? 1 : Number(a.index) - Number(b.index),
    )
    .map((i) => refKey(i.transaction.id, i.index));
}

function publishScriptHash(tx: Transaction, index: number): string | null {
  const cert = tx.certificates?.[index] as { credential?: unknown; from?: unknown; stake?: unknown } | undefined;
  if (!cert) return null;
  const cred = (cert.credential ?? cert.stake) as unknown;
  if (typeof cred === "string" && cert.from === "script") return cred;
  return null;
}

export function transactionLookupData(tx: Transaction): TransactionLookupData {
  const scripts: SeenScript[] = [];
  for (const [hash, s] of Object.entries(tx.scripts ?? {})) scripts.push(seenScript(s, hash));
  const datums: SeenDatum[] = Object.entries(tx.datums ?? {}).map(([hash, cbor]) => ({ hash, cbor: String(cbor) }));
  const outputs: SeenOutput[] = tx.outputs.map((o, i) => {
    const inline = typeof o.datum === "string" ? o.datum : null;
    const datumHash = inline !== null ? plutusDataHash(inline) : (o.datumHash ?? null);
    if (inline !== null) datums.push({ hash: datumHash!, cbor: inline });
    if (o.script) scripts.push(seenScript(o.script));
    return { ref: refKey(tx.id, i), address: o.address, datumHash, datum: inline };
  });

  const inputs = sortedInputs(tx);
  const policies = Object.keys(tx.mint ?? {}).sort();
  const accounts = Object.keys(tx.withdrawals ?? {});
  const sortedAccounts = accounts.length > 0 ? sortRewardAccounts(accounts) : [];
  const redeemers: SeenRedeemer[] = (tx.redeemers ?? []).map((r) => {
    const index = Number(r.validator.index);
    const tag = TAGS[r.validator.purpose] ?? "spend";
    let scriptHash: string | null = null;
    let spentRef: string | null = null;
    if (tag === "spend") spentRef = inputs[index] ?? null;
    else if (tag === "mint") scriptHash = policies[index] ?? null;
    else if (tag === "reward") {
      const account = sortedAccounts[index];
      const cred = account !== undefined ? rewardCredentialOf(account) : undefined;
      scriptHash = cred?.kind === "script" ? cred.hash : null;
    } else if (tag === "cert") scriptHash = publishScriptHash(tx, index);
    const data = String(r.redeemer);
    return {
      tag,
      index,
      data,
      dataHash: plutusDataHash(data),
      mem: BigInt(r.executionUnits.memory),
      steps: BigInt(r.executionUnits.cpu),
      scriptHash,
      spentRef,
    };
  });
  return { scripts, datums, outputs, redeemers };
}

/** The script credential of an address (spends resolve through the spent output's address). */
export function scriptHashOfAddress(address: string): string | null {
  try {
    const cred = paymentCredentialOf(address);
    return cred?.kind === "script" ? cred.hash : null;
  } catch {
    return null;
  }
}
