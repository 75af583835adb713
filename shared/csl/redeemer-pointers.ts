/**
 * Redeemer pointers ↔ stable purpose keys (docs/architecture.md#csl, trap 2).
 *
 * A redeemer points at its purpose by (tag, index) where the index is the position in the *ledger's sorted*
 * order: inputs by (tx id, output index), policies by hash, reward accounts by (network, script-before-key,
 * hash) — Haskell's derived Ord of `Credential = ScriptHashObj | KeyHashObj`. CSL rewrites whatever index we
 * pass, and coin selection can add inputs that shift spend indices between builds. So we never carry indices
 * across builds: evaluation results are mapped to keys through the very tx that was evaluated.
 */
import { CSL } from "./lib";
import { withFreed } from "./scope";
import { CslError, cslCall } from "./errors";
import { fromHex } from "./hex";
import { PolicyId, ScriptHash, TxHash } from "../domain/hex";

/** Ogmios v6 validator purposes. */
export type RedeemerPurpose = "spend" | "mint" | "publish" | "withdraw" | "vote" | "propose";

/** `spend:<txId>#<ix>`, `mint:<policyId>`, `withdraw:<reward address bech32>` */
export type PurposeKey = string;

export interface ExUnitsBudget {
  memory: bigint;
  cpu: bigint;
}

/** Ogmios `evaluateTransaction` result item (numbers may be number or bigint). */
export interface EvaluationItem {
  validator: { purpose: string; index: number | bigint };
  budget: { memory: number | bigint; cpu: number | bigint };
}

// Keys are made from Ogmios's JSON and from CSL alike: the hashes go through their types, so both give one key.
export function spendKey(txId: string, index: number): PurposeKey {
  return `spend:${TxHash(txId)}#${index}`;
}
export function mintKey(policyId: string): PurposeKey {
  return `mint:${PolicyId(policyId)}`;
}
export function withdrawKey(rewardAddressBech32: string): PurposeKey {
  return `withdraw:${rewardAddressBech32}`;
}
/** A stake (de)registration certificate of a script credential: `publish:register:<script hash>`. */
export function publishKey(kind: "register" | "deregister", scriptHash: string): PurposeKey {
  return `publish:${kind}:${ScriptHash(scriptHash)}`;
}

function pointerId(purpose: string, index: number | bigint): string {
  return `${purpose}:${Number(index)}`;
}

/** pointer ("spend:0") → purpose key, from the body of `txCborHex` exactly as it is. */
export function purposeKeysByPointer(txCborHex: string): Map<string, PurposeKey> {
  const fixed = cslCall("INVALID_CBOR", "cannot decode transaction", () =>
    CSL.FixedTransaction.from_bytes(fromHex(txCborHex, "transaction")),
  );
  return purposeKeysOfBody(fixed.body());
}

function purposeKeysOfBody(body: CSL.TransactionBody): Map<string, PurposeKey> {
  const out = new Map<string, PurposeKey>();
  const inputs: Array<{ txId: string; index: number }> = [];
  const ins = body.inputs();
  for (let i = 0; i < ins.len(); i++) {
    const inp = ins.get(i);
    inputs.push({ txId: inp.transaction_id().to_hex(), index: inp.index() });
  }
  inputs.sort((a, b) => (a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : a.index - b.index));
  inputs.forEach((inp, i) => out.set(pointerId("spend", i), spendKey(inp.txId, inp.index)));

  const policies: string[] = [];
  const mintKeys = body.mint()?.keys();
  for (let i = 0; mintKeys && i < mintKeys.len(); i++) policies.push(mintKeys.get(i).to_hex());
  policies.sort();
  policies.forEach((p, i) => out.set(pointerId("mint", i), mintKey(p)));

  const accounts: string[] = [];
  const ws = body.withdrawals()?.keys();
  for (let i = 0; ws && i < ws.len(); i++) accounts.push(ws.get(i).to_address().to_bech32());
  sortRewardAccounts(accounts).forEach((a, i) => out.set(pointerId("withdraw", i), withdrawKey(a)));

  // certificates keep their body order
  const certs = body.certs();
  for (let i = 0; certs && i < certs.len(); i++) {
    const key = publishKeyOfCertificate(certs.get(i));
    if (key) out.set(pointerId("publish", i), key);
  }
  return out;
}

/**
 * Reward accounts (bech32) in the ledger's order, which is the withdraw-redeemer index order: network, then
 * script credentials before key credentials, then hash bytes. NOT the address-byte order (the header nibble puts
 * key credentials 0xe_ before script credentials 0xf_). cardano-ledger: derived `Ord RewardAccount` and
 * `Credential = ScriptHashObj | KeyHashObj`.
 * @throws CslError INVALID_ADDRESS for a non-reward address
 */
export function sortRewardAccounts(rewardAddresses: readonly string[]): string[] {
  const keyed = rewardAddresses.map((bech32) =>
    withFreed((own) => {
      const ra = own(
        cslCall("INVALID_ADDRESS", "not a reward address", () => CSL.RewardAddress.from_address(own(CSL.Address.from_bech32(bech32))), {
          address: bech32,
        }),
      );
      if (!ra) throw new CslError("INVALID_ADDRESS", "not a reward address", { address: bech32 });
      const cred = own(ra.payment_cred());
      const script = cred.has_script_hash();
      const hash = script ? own(cred.to_scripthash())!.to_hex() : own(cred.to_keyhash())!.to_hex();
      return { bech32, order: `${ra.network_id()}:${script ? "0" : "1"}:${hash}` };
    }),
  );
  keyed.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return keyed.map((k) => k.bech32);
}

const PURPOSES: Record<CSL.RedeemerTagKind, RedeemerPurpose> = {
  [CSL.RedeemerTagKind.Spend]: "spend",
  [CSL.RedeemerTagKind.Mint]: "mint",
  [CSL.RedeemerTagKind.Cert]: "publish",
  [CSL.RedeemerTagKind.Reward]: "withdraw",
  [CSL.RedeemerTagKind.Vote]: "vote",
  [CSL.RedeemerTagKind.VotingProposal]: "propose",
};

/** The Ogmios purpose name of a redeemer tag. */
export function purposeOfTag(tag: CSL.RedeemerTag): RedeemerPurpose {
  return PURPOSES[tag.kind()];
}

export interface RedeemerInfo {
  key: PurposeKey | undefined;
  purpose: RedeemerPurpose;
  index: number;
  dataHex: string;
  memory: bigint;
  cpu: bigint;
}

/** The redeemers carried by a tx, each resolved to its purpose key. */
export function redeemersOf(txCborHex: string): RedeemerInfo[] {
  const fixed = cslCall("INVALID_CBOR", "cannot decode transaction", () =>
    CSL.FixedTransaction.from_bytes(fromHex(txCborHex, "transaction")),
  );
  const keys = purposeKeysOfBody(fixed.body());
  const rs = fixed.witness_set().redeemers();
  const out: RedeemerInfo[] = [];
  for (let i = 0; rs && i < rs.len(); i++) {
    const r = rs.get(i);
    const purpose = purposeOfTag(r.tag());
    const index = Number(r.index().to_str());
    out.push({
      key: keys.get(pointerId(purpose, index)),
      purpose,
      index,
      dataHex: r.data().to_hex(),
      memory: BigInt(r.ex_units().mem().to_str()),
      cpu: BigInt(r.ex_units().steps().to_str()),
    });
  }
  return out;
}

/**
 * Maps Ogmios evaluation results back to purpose keys through the tx that was evaluated.
 * @throws CslError EVALUATION_RESULT_UNMATCHED when a result points at nothing in that tx
 */
export function evaluationByKey(evaluatedTxHex: string, results: readonly EvaluationItem[]): Map<PurposeKey, ExUnitsBudget> {
  const keys = purposeKeysByPointer(evaluatedTxHex);
  const out = new Map<PurposeKey, ExUnitsBudget>();
  for (const r of results) {
    const id = pointerId(r.validator.purpose, r.validator.index);
    const key = keys.get(id);
    if (!key) {
      throw new CslError("EVALUATION_RESULT_UNMATCHED", `evaluation result ${id} matches no redeemer purpose of the tx`, {
        pointer: id,
      });
    }
    out.set(key, { memory: BigInt(r.budget.memory), cpu: BigInt(r.budget.cpu) });
  }
  return out;
}

/**
 * `evaluationByKey` for a transaction this process just built: the pointers come from the builder's own report of
 * the redeemers it placed (`BuiltTx.redeemers`, read from the transaction's bytes when it was built), so the
 * transaction is not decoded again. A result for a pointer that carries no redeemer matches nothing.
 * @throws CslError EVALUATION_RESULT_UNMATCHED when a result points at no redeemer of the tx
 */
export function evaluationByRedeemers(
  redeemers: readonly { key: PurposeKey; purpose: string; index: number }[],
  results: readonly EvaluationItem[],
): Map<PurposeKey, ExUnitsBudget> {
  const keys = new Map(redeemers.map((r) => [pointerId(r.purpose, r.index), r.key]));
  const out = new Map<PurposeKey, ExUnitsBudget>();
  for (const r of results) {
    const id = pointerId(r.validator.purpose, r.validator.index);
    const key = keys.get(id);
    if (!key) {
      throw new CslError("EVALUATION_RESULT_UNMATCHED", `evaluation result ${id} matches no redeemer of the tx`, { pointer: id });
    }
    out.set(key, { memory: BigInt(r.budget.memory), cpu: BigInt(r.budget.cpu) });
  }
  return out;
}

function publishKeyOfCertificate(cert: CSL.Certificate): PurposeKey | undefined {
  const reg = cert.as_reg_cert() ?? cert.as_stake_registration();
  const unreg = cert.as_unreg_cert() ?? cert.as_stake_deregistration();
  const cred = reg?.stake_credential() ?? unreg?.stake_credential();
  const script = cred?.to_scripthash();
  if (!script) return undefined;
  return publishKey(reg ? "register" : "deregister", script.to_hex());
}
