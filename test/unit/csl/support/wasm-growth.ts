/**
 * Run in a fresh process (`node --import tsx wasm-growth.ts <scenario> <calls>`): prints how many bytes CSL's wasm
 * memory grew over `calls` synchronous calls of a scenario, after a warm-up. A fresh process matters: wasm memory
 * never shrinks, so in a process where earlier garbage was freed a leak could hide in the free room.
 */
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import type { Transaction } from "@cardano-ogmios/schema";
import {
  addressBytesHex,
  enterpriseAddressOfKeyHash,
  keyHashOfPublicKey,
  paymentCredentialOf,
  rewardCredentialOf,
} from "../../../../shared/csl/address";
import { nativeScriptHash } from "../../../../shared/csl/native-script";
import { dataToCborHex, datumHashOf, detailedDataJson, plutusDataFromCborHex } from "../../../../shared/csl/plutus-data";
import { plutusScriptHash, scriptAddress, scriptRewardAddress, singleWrapFlat } from "../../../../shared/csl/plutus-script";
import { sortRewardAccounts } from "../../../../shared/csl/redeemer-pointers";
import { transactionLookupData } from "../../../../shared/lookups/transaction-scripts";
import { constr, encodeStateRedeemer, makeCertificate } from "../../../../shared/protocol";
import { ALWAYS_SUCCEEDS_FLAT } from "../../../../fixtures/csl/fixtures";
import { DataHash, KeyHash } from "../../../../shared/domain/hex";

const wasmMemory = (CSL as unknown as { __wasm: { memory: { buffer: ArrayBuffer } } }).__wasm.memory;

const OWNER = "ab".repeat(28);
const SCRIPT = "cd".repeat(28);
const certificates = Array.from({ length: 10 }, (_, i) =>
  makeCertificate({
    hash: DataHash(String(i).padStart(64, "0")),
    algorithm: "SHA-256",
    issuer: KeyHash(OWNER),
    metadata: JSON.stringify({ uv_tid: "diploma", i }),
  }),
);
/** The redeemer of a 10-certificate issuance, as the indexer and the lookups see it on chain. */
const REDEEMER = dataToCborHex(encodeStateRedeemer({ purpose: "UPDATE_STATE", certificates }));
const REWARD_ACCOUNT = scriptRewardAddress(SCRIPT, 0);
const STATE_ADDRESS = scriptAddress(SCRIPT, 0);
const TX = {
  id: "ef".repeat(32),
  spends: "inputs",
  inputs: [{ transaction: { id: "01".repeat(32) }, index: 0 }],
  outputs: [{ address: STATE_ADDRESS, value: { ada: { lovelace: 2_000_000n } }, datum: REDEEMER }],
  withdrawals: { [REWARD_ACCOUNT]: { ada: { lovelace: 0n } } },
  scripts: { [SCRIPT]: { language: "native", json: { clause: "all", from: [{ clause: "signature", from: OWNER }] } } },
  redeemers: [
    { validator: { purpose: "spend", index: 0 }, redeemer: dataToCborHex(constr(0)), executionUnits: { memory: 1, cpu: 1 } },
    { validator: { purpose: "withdraw", index: 0 }, redeemer: REDEEMER, executionUnits: { memory: 1, cpu: 1 } },
  ],
} as unknown as Transaction;
const ALWAYS = singleWrapFlat(ALWAYS_SUCCEEDS_FLAT);
const NATIVE = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(CSL.Ed25519KeyHash.from_hex(OWNER))).to_hex();

const SCENARIOS: Record<string, () => void> = {
  /** the control: the datum hash as it was computed before, leaving its objects to the finalizers */
  unfreedDatumHash: () => CSL.hash_plutus_data(CSL.PlutusData.from_hex(REDEEMER)).to_hex(),
  datumHashOf: () => datumHashOf(REDEEMER),
  /** the lookups' per-transaction work and every address, script and Plutus-data helper of the indexer paths */
  helpers: () => {
    transactionLookupData(TX);
    plutusDataFromCborHex(REDEEMER);
    detailedDataJson(REDEEMER);
    dataToCborHex(encodeStateRedeemer({ purpose: "UPDATE_STATE", certificates }));
    enterpriseAddressOfKeyHash(OWNER, 0);
    paymentCredentialOf(STATE_ADDRESS);
    rewardCredentialOf(REWARD_ACCOUNT);
    addressBytesHex(STATE_ADDRESS);
    keyHashOfPublicKey("11".repeat(32));
    sortRewardAccounts([REWARD_ACCOUNT, scriptRewardAddress(OWNER, 0)]);
    scriptAddress(SCRIPT, 0, OWNER);
    plutusScriptHash(ALWAYS);
    nativeScriptHash(NATIVE);
  },
};

const [scenario, calls] = process.argv.slice(2);
const call = SCENARIOS[scenario ?? ""];
if (call) {
  for (let i = 0; i < 100; i++) call(); // warm-up: let the allocator reach its working size
  const before = wasmMemory.buffer.byteLength;
  for (let i = 0; i < Number(calls); i++) call(); // synchronous: CSL's finalizers cannot run in between
  process.stdout.write(String(wasmMemory.buffer.byteLength - before));
}
