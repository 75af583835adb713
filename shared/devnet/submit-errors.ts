// Turns a scalus rejection (Scala `toString()` text) into the Ogmios submitTransaction error with its code-specific
// `data`. Scalus reports only the first failed rule, as text, so the mapping is by message prefix; where the data
// can be derived from the transaction and the mempool view instead of parsed, it is (more robust than regexes).
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import type { DecodedTransaction } from "./decoded-transaction";
import { DevnetError } from "./errors";
import { LEDGER_PARAMETERS } from "./protocol-parameters";
import { addressText } from "../csl/utxo";
import { valueToOgmios } from "../csl/value";
import { projectOutput } from "./ogmios-projection";
import type { UtxoSet } from "./utxo-set";

export interface RejectionContext {
  tx: DecodedTransaction;
  view: UtxoSet;
  slot: number;
}

const lovelace = (n: bigint) => ({ ada: { lovelace: n } });
const refOf = (key: string) => {
  const [id, index] = key.split("#");
  return { transaction: { id: id ?? "" }, index: Number(index) };
};
const hexList = (text: string, length: number): string[] => [...new Set(text.match(new RegExp(`\\b[0-9a-f]{${length}}\\b`, "g")) ?? [])];

/** Text after `label` up to the next `label:`-style field, so hash lists from one field are not mixed with others. */
function field(message: string, label: string): string {
  const start = message.indexOf(label);
  if (start < 0) return "";
  const rest = message.slice(start + label.length);
  const end = rest.search(/, [a-z][a-z ]+:/);
  return end < 0 ? rest : rest.slice(0, end);
}

function outputsBelowMinimum(tx: DecodedTransaction): { output: unknown; minimumRequiredValue: unknown }[] {
  const body = tx.fixed.body();
  const cost = CSL.DataCost.new_coins_per_byte(CSL.BigNum.from_str(LEDGER_PARAMETERS.coinsPerUtxoByte.toString()));
  const found: { output: unknown; minimumRequiredValue: unknown }[] = [];
  const outputs = [...Array(body.outputs().len()).keys()].map((i) => body.outputs().get(i));
  const ret = body.collateral_return();
  if (ret) outputs.push(ret);
  for (const output of outputs) {
    const minimum = BigInt(CSL.min_ada_for_output(output, cost).to_str());
    if (BigInt(output.amount().coin().to_str()) < minimum)
      found.push({ output: projectOutput(output), minimumRequiredValue: lovelace(minimum) });
  }
  return found;
}

function wrongNetworkAddresses(tx: DecodedTransaction): string[] {
  const body = tx.fixed.body();
  const found: string[] = [];
  for (let i = 0; i < body.outputs().len(); i++) {
    const address = body.outputs().get(i).address();
    if (address.network_id() !== 0) found.push(addressText(address));
  }
  const ret = body.collateral_return();
  if (ret && ret.address().network_id() !== 0) found.push(addressText(ret.address()));
  return found;
}

function parseCoins(text: string): bigint[] {
  return [...text.matchAll(/Coin\((\d+)\)/g)].map((m) => BigInt(m[1] ?? "0"));
}

const PURPOSES: Record<string, string> = {
  spend: "spend",
  mint: "mint",
  cert: "publish",
  reward: "withdraw",
  voting: "vote",
  proposing: "propose",
};

/** Script hashes locking spent inputs that neither the witness set nor any (reference) input's script ref provides. */
function missingSpendScripts(tx: DecodedTransaction, view: UtxoSet): string[] {
  const provided = new Set<string>();
  const witnesses = tx.fixed.witness_set();
  const plutus = witnesses.plutus_scripts();
  for (let i = 0; i < (plutus?.len() ?? 0); i++) provided.add(plutus!.get(i).hash().to_hex());
  const natives = witnesses.native_scripts();
  for (let i = 0; i < (natives?.len() ?? 0); i++) provided.add(natives!.get(i).hash().to_hex());
  const needed: string[] = [];
  for (const key of [...tx.inputs, ...tx.referenceInputs]) {
    const entry = view.get(key);
    if (!entry) continue;
    const output = CSL.TransactionOutput.from_bytes(entry.outputCbor);
    const ref = output.script_ref();
    if (ref) provided.add((ref.plutus_script()?.hash() ?? ref.native_script()!.hash()).to_hex());
    if (tx.inputs.includes(key)) {
      const script = output.address().payment_cred()?.to_scripthash();
      if (script) needed.push(script.to_hex());
    }
  }
  return [...new Set(needed)].filter((h) => !provided.has(h));
}

/**
 * The Ogmios error for a scalus rejection message.
 * Codes: https://ogmios.dev/mini-protocols/local-tx-submission/ (3100–3168); unknown texts become 3997.
 */
export function rejectionToOgmiosError(message: string, logs: string[], ctx: RejectionContext): DevnetError {
  const { tx, view } = ctx;
  const unknown = [...tx.inputs, ...tx.referenceInputs, ...tx.collaterals].filter((k) => !view.has(k));
  if (
    /^Missing (inputs|collateral inputs|reference inputs|inputs, collateral inputs or reference inputs) in UTxO state/.test(message) ||
    unknown.length > 0
  ) {
    return new DevnetError(3117, "Some transaction inputs are unknown (already spent or never created).", {
      unknownOutputReferences: [...new Set(unknown)].map(refOf),
    });
  }
  if (message.startsWith("Fee or collateral validation failed")) {
    const fee = /fee Coin\((\d+)\) is less than minimum required Coin\((\d+)\)/.exec(message);
    if (fee) {
      return new DevnetError(3122, "The transaction fee is below the minimum required.", {
        minimumRequiredFee: lovelace(BigInt(fee[2] ?? "0")),
        providedFee: lovelace(BigInt(fee[1] ?? "0")),
      });
    }
    if (tx.collaterals.length === 0 || /collateral inputs? (is|are) empty|no collateral/i.test(message)) {
      return new DevnetError(3132, `The transaction runs scripts but provides no collateral. (${message})`);
    }
    const coins = parseCoins(message);
    return new DevnetError(3128, `Insufficient collateral. (${message})`, {
      providedCollateral: lovelace(coins[0] ?? 0n),
      minimumRequiredCollateral: lovelace(coins[1] ?? 0n),
    });
  }
  if (message.startsWith("Transaction outputs are too small")) {
    return new DevnetError(3125, "Some outputs hold less than the minimum UTxO value.", {
      insufficientlyFundedOutputs: outputsBelowMinimum(tx),
    });
  }
  if (/^Wrong network/.test(message)) {
    return new DevnetError(3124, "Some addresses belong to another network.", {
      expectedNetwork: "testnet",
      discriminatedType: "address",
      invalidEntities: wrongNetworkAddresses(tx),
    });
  }
  if (message.startsWith("Missing key hashes")) {
    return new DevnetError(3101, "Some signatures are missing.", { missingSignatories: hexList(message, 56) });
  }
  if (message.startsWith("Invalid verified signatures")) {
    const keys = [...message.matchAll(/VKeyWitness\("([0-9a-f]{64})"/g)].map((m) => m[1] ?? "");
    return new DevnetError(3100, "Some signatures are invalid.", { invalidSignatories: keys });
  }
  if (/validity interval|OutsideValidityInterval/i.test(message)) {
    const interval: Record<string, number> = {};
    if (tx.invalidBefore !== undefined) interval.invalidBefore = tx.invalidBefore;
    if (tx.invalidAfter !== undefined) interval.invalidAfter = tx.invalidAfter;
    return new DevnetError(3118, "The transaction is outside of its validity interval.", {
      validityInterval: interval,
      currentSlot: ctx.slot,
    });
  }
  if (message.startsWith("Invalid script data hash")) {
    const hashes = hexList(message, 64).filter((h) => h !== tx.id);
    const provided = tx.fixed.body().script_data_hash()?.to_hex() ?? null;
    const computed = hashes.find((h) => h !== provided) ?? null;
    return new DevnetError(3113, "The script integrity hash does not match.", {
      providedScriptIntegrity: provided,
      computedScriptIntegrity: computed,
    });
  }
  if (message.startsWith("Plutus script validation failed")) {
    return new DevnetError(3136, "The transaction declares its scripts valid, but a script failed.", {
      declaredSpending: "inputs",
      mismatchReason: [message, ...logs].join("\n"),
    });
  }
  if (message.startsWith("Transaction with invalid flag passed script validation")) {
    return new DevnetError(3136, "The transaction declares its scripts invalid, but they all passed.", {
      declaredSpending: "collaterals",
      mismatchReason: message,
    });
  }
  if (message.startsWith("Datums validation failed")) {
    // Scalus: "inputs with missing datum hashes: …, unmatched datum hashes: Set(…), not allowed supplemental datum hashes: …"
    const unmatched = hexList(/unmatched datum hashes: (?:Tree)?Set\(([^)]*)\)/.exec(message)?.[1] ?? "", 64);
    const extraneous = hexList(/supplemental datum hashes: (?:Tree)?Set\(([^)]*)\)/.exec(message)?.[1] ?? "", 64);
    if (unmatched.length === 0 && extraneous.length > 0) {
      return new DevnetError(3112, "Some datums are not needed by the transaction.", { extraneousDatums: extraneous });
    }
    return new DevnetError(3111, "Some datums are missing.", { missingDatums: unmatched });
  }
  if (message.startsWith("Invalid native scripts")) {
    return new DevnetError(3103, "A native script failed.", { failingNativeScripts: hexList(message, 56) });
  }
  if (message.startsWith("Missing or extra script hashes")) {
    const missing = hexList(field(message, "missing"), 56);
    if (missing.length > 0) return new DevnetError(3102, "Some scripts are missing.", { missingScripts: missing });
    return new DevnetError(3104, "Some scripts are not needed.", { extraneousScripts: hexList(field(message, "extra"), 56) });
  }
  if (message.startsWith("Withdrawals validation failed")) {
    const body = tx.fixed.body();
    const incomplete: Record<string, unknown> = {};
    const withdrawals = body.withdrawals();
    if (withdrawals) {
      const accounts = withdrawals.keys();
      for (let i = 0; i < accounts.len(); i++) {
        const account = accounts.get(i);
        incomplete[account.to_address().to_bech32(undefined)] = lovelace(BigInt(withdrawals.get(account)!.to_str()));
      }
    }
    return new DevnetError(3141, "Withdrawals do not match the reward accounts (unregistered or wrong amount).", {
      incompleteWithdrawals: incomplete,
    });
  }
  if (message.startsWith("Value not conserved")) {
    const coins = parseCoins(message);
    const body = tx.fixed.body();
    const produced = body.outputs();
    let total = CSL.Value.new(body.fee());
    for (let i = 0; i < produced.len(); i++) total = total.checked_add(produced.get(i).amount());
    return new DevnetError(3123, "The value consumed does not equal the value produced.", {
      valueConsumed: lovelace(coins[0] ?? 0n),
      valueProduced: valueToOgmios(total),
    });
  }
  if (message.startsWith("Too many collateral inputs")) {
    return new DevnetError(3131, "Too many collateral inputs.", {
      maximumCollateralInputs: LEDGER_PARAMETERS.maxCollateralInputs,
      countedCollateralInputs: tx.collaterals.length,
    });
  }
  if (message.startsWith("Empty transaction inputs")) return new DevnetError(3121, "The transaction has no inputs.");
  if (message.startsWith("Inputs intersects with reference inputs")) {
    return new DevnetError(3164, "Some inputs are also reference inputs.", {
      conflictingReferences: tx.referenceInputs.filter((k) => tx.inputs.includes(k)).map(refOf),
    });
  }
  if (message.startsWith("Transaction size")) {
    return new DevnetError(3119, "The transaction is too large.", {
      measuredTransactionSize: { bytes: tx.bytes.length },
      maximumTransactionSize: { bytes: LEDGER_PARAMETERS.maxTransactionSize },
    });
  }
  if (message.startsWith("Exact set of redeemers")) {
    // The ledger checks missing scripts before redeemers; scalus reports the redeemer mismatch first.
    const missingScripts = missingSpendScripts(tx, view);
    if (missingScripts.length > 0) return new DevnetError(3102, "Some scripts are missing.", { missingScripts });
    const pointers = (label: string) =>
      [...(new RegExp(`${label} redeemers: Set\\(([^]*?)\\)(?:,|$)`).exec(message)?.[1] ?? "").matchAll(/\((\w+),(\d+)\)/g)].map((m) => ({
        purpose: PURPOSES[(m[1] ?? "").toLowerCase()] ?? "spend",
        index: Number(m[2]),
      }));
    const extra = pointers("extra");
    if (extra.length > 0)
      return new DevnetError(3110, "Some redeemers do not point at anything to validate.", { extraneousRedeemers: extra });
    // Ogmios describes missing redeemers by script purpose (output reference, policy…), which the text does not carry.
    return new DevnetError(3109, `Some redeemers are missing. (${message})`, { missingRedeemers: [] });
  }
  return new DevnetError(3997, "The transaction was rejected by the ledger rules.", { error: message });
}
