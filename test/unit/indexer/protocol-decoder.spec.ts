import type { Transaction } from "@cardano-ogmios/schema";
import { expect } from "chai";
import { Wallet, generateMnemonic } from "../../../shared/wallet";
import { sortRewardAccounts } from "../../../shared/csl/redeemer-pointers";
import { CSL } from "../../../shared/csl/lib";
import { decodeProtocolTransaction, isProxyAddress, type ProtocolView } from "../../../shared/indexer/protocol-decoder";
import {
  dataToCborHex,
  encodeBootstrapDatum,
  encodeProxyDatum,
  encodeStateDatum,
  encodeStateRedeemer,
  makeCertificate,
  rewardAddressOf,
  scriptAddressOf,
  type StatePurpose,
} from "../../../shared/protocol";
import { DataHash, KeyHash } from "../../../shared/domain/hex";

const policy = "a1".repeat(28);
const stateHash = "b2".repeat(28);
const otherScript = "c3".repeat(28);
const owner = "d4".repeat(28);
const pointerName = "e5".repeat(32);
const stateId = "f6".repeat(32);
const view: ProtocolView = {
  proxyPolicyId: policy,
  proxyAddress: scriptAddressOf(policy, 0),
  pointerTokenName: pointerName,
  stateScriptHashes: new Set([stateHash]),
  libraryAddress: scriptAddressOf("99".repeat(28), 0),
  libraryAdmin: owner,
};
const utf8Hex = (s: string) => Buffer.from(s, "utf8").toString("hex");

const stateDatum = {
  id: stateId,
  owner,
  fee: 2_000_000n,
  feeInterval: 3n,
  feeReceivers: ["aa".repeat(28)],
  ttl: 4_000_000_000_000n,
  countdown: 14n,
  certificateDataHash: "00".repeat(32),
  batchSize: 10n,
  bootstrapDatumName: utf8Hex("default"),
  keepAsOracle: false,
};

function aTx(
  purpose: StatePurpose,
  opts: { mint?: Record<string, bigint>; datum?: string; withdrawFrom?: string[]; certs?: number } = {},
): Transaction {
  const accounts = (opts.withdrawFrom ?? [stateHash]).map((h) => rewardAddressOf(h, 0));
  const certificates = Array.from({ length: opts.certs ?? 1 }, (_, i) =>
    makeCertificate({
      hash: DataHash(`${i}`.padStart(64, "0")),
      algorithm: "SHA-256",
      issuer: KeyHash(owner),
      metadata: i === 0 ? '{"uv_tid":"diploma","name":"' + "x".repeat(80) + '"}' : "",
    }),
  );
  const stateIndex = sortRewardAccounts(accounts).indexOf(rewardAddressOf(stateHash, 0));
  return {
    id: "77".repeat(32),
    spends: "inputs",
    inputs: [],
    outputs: [
      {
        address: view.proxyAddress,
        value: { ada: { lovelace: 2_000_000n }, [policy]: { [stateId]: 1n } } as never,
        datum: opts.datum ?? dataToCborHex(encodeStateDatum(stateDatum)),
      },
    ],
    withdrawals: Object.fromEntries(accounts.map((a) => [a, { ada: { lovelace: 0n } }])),
    ...(opts.mint ? { mint: { [policy]: opts.mint } as never } : {}),
    signatories: [],
    redeemers: [
      {
        validator: { purpose: "withdraw", index: stateIndex },
        redeemer: dataToCborHex(encodeStateRedeemer({ purpose, certificates })),
        executionUnits: { memory: 1, cpu: 1 },
      },
    ],
  } as Transaction;
}

describe("protocol decoder", () => {
  it("decodes a fork: the new state and its certificates, metadata chunks joined", () => {
    const { facts, errors } = decodeProtocolTransaction(aTx("MINT_STATE", { mint: { [stateId]: 1n }, certs: 2 }), view);
    expect(errors).to.deep.equal([]);
    expect(facts.map((f) => f.type)).to.deep.equal(["state.minted", "certificate.issued", "certificate.issued"]);
    const [state, first] = facts;
    expect(state).to.deep.include({
      stateId,
      owner,
      countdown: "14",
      bootstrapName: "default",
      outRef: { txHash: "77".repeat(32), index: 0 },
    });
    expect(first).to.deep.include({
      position: 0,
      issuer: owner,
      algorithm: "SHA-256",
      stateId,
      bootstrapName: "default",
      purpose: "MINT_STATE",
    });
    expect((first as { metadata: string }).metadata).to.equal('{"uv_tid":"diploma","name":"' + "x".repeat(80) + '"}');
  });

  it("decodes an update from the state output at the proxy, and a burn of an exhausted state in a fork", () => {
    const update = decodeProtocolTransaction(aTx("UPDATE_STATE"), view).facts;
    expect(update[0]).to.deep.include({ type: "state.updated", stateId, countdown: "14" });
    const forkWithBurn = decodeProtocolTransaction(aTx("MINT_STATE", { mint: { [stateId]: 1n, ["ab".repeat(32)]: -1n } }), view).facts;
    expect(forkWithBurn.filter((f) => f.type === "state.burned")).to.deep.equal([{ type: "state.burned", stateId: "ab".repeat(32) }]);
  });

  it("finds the state redeemer by the ledger order of the withdrawals (scripts before keys), whatever the JSON order", () => {
    const tx = aTx("UPDATE_STATE", { withdrawFrom: [otherScript, stateHash, "01".repeat(28)] });
    // A key-credential withdrawal sorts after every script one although its address bytes sort first.
    const keyAccount = Wallet.fromMnemonic(generateMnemonic()).rewardAddress;
    tx.withdrawals = { [keyAccount]: { ada: { lovelace: 0n } }, ...tx.withdrawals };
    const facts = decodeProtocolTransaction(tx, view).facts;
    expect(facts.some((f) => f.type === "certificate.issued")).to.equal(true);
  });

  it("ignores a withdrawal from a script that is not a known state script", () => {
    const tx = aTx("UPDATE_STATE", { withdrawFrom: [otherScript] });
    expect(decodeProtocolTransaction(tx, view).facts).to.deep.equal([]);
  });

  it("decodes bootstrap mints and burns, and pointer changes", () => {
    const bootName = utf8Hex("partner");
    const bootDatum = dataToCborHex(
      encodeBootstrapDatum({
        allowedCredentials: [owner],
        tokenName: bootName,
        fee: 0n,
        feeInterval: 1n,
        feeReceivers: [],
        ttl: 5n,
        transactionLimit: 10n,
        batchSize: 5n,
      }),
    );
    const tx = aTx("MINT_BOOTSTRAP", { mint: { [bootName]: 1n }, datum: bootDatum, certs: 0 });
    (tx.outputs[0]!.value as unknown as Record<string, unknown>)[policy] = { [bootName]: 1n };
    expect(decodeProtocolTransaction(tx, view).facts).to.deep.equal([
      {
        type: "bootstrap.minted",
        name: "partner",
        tokenName: bootName,
        allowedCredentials: [owner],
        fee: "0",
        feeInterval: "1",
        feeReceivers: [],
        ttl: "5",
        transactionLimit: "10",
        batchSize: "5",
        outRef: { txHash: "77".repeat(32), index: 0 },
      },
    ]);
    expect(decodeProtocolTransaction(aTx("BURN_BOOTSTRAP", { mint: { [bootName]: -1n }, certs: 0 }), view).facts).to.deep.include({
      type: "bootstrap.burned",
      name: "partner",
      tokenName: bootName,
    });

    const pointerTx = aTx("UPDATE_STATE", {
      datum: dataToCborHex(encodeProxyDatum({ scriptPointer: stateHash, scriptOwner: owner })),
      withdrawFrom: [otherScript],
    });
    (pointerTx.outputs[0]!.value as unknown as Record<string, unknown>)[policy] = { [pointerName]: 1n };
    expect(decodeProtocolTransaction(pointerTx, view).facts).to.deep.equal([
      { type: "pointer.set", scriptPointer: stateHash, owner, outRef: { txHash: "77".repeat(32), index: 0 } },
    ]);
  });

  it("records no certificate from a bootstrap or burn redeemer: only MINT_STATE and UPDATE_STATE check the issuers' signatures", () => {
    const bootName = utf8Hex("partner");
    const bootDatum = dataToCborHex(
      encodeBootstrapDatum({
        allowedCredentials: [],
        tokenName: bootName,
        fee: 0n,
        feeInterval: 1n,
        feeReceivers: [],
        ttl: 5n,
        transactionLimit: 10n,
        batchSize: 5n,
      }),
    );
    const mint = aTx("MINT_BOOTSTRAP", { mint: { [bootName]: 1n }, datum: bootDatum, certs: 2 });
    (mint.outputs[0]!.value as unknown as Record<string, unknown>)[policy] = { [bootName]: 1n };
    const types = (tx: Transaction) => decodeProtocolTransaction(tx, view).facts.map((f) => f.type);
    expect(types(mint)).to.deep.equal(["bootstrap.minted"]);
    expect(types(aTx("BURN_BOOTSTRAP", { mint: { [bootName]: -1n }, certs: 1 }))).to.deep.equal(["bootstrap.burned"]);
    expect(types(aTx("BURN_STATE", { mint: { [stateId]: -1n }, certs: 1 }))).to.deep.equal(["state.burned"]);
  });

  it("records no certificate from a MINT_STATE or UPDATE_STATE that wrote no state output", () => {
    for (const purpose of ["MINT_STATE", "UPDATE_STATE"] as const) {
      const tx = aTx(purpose, { mint: purpose === "MINT_STATE" ? { [stateId]: 1n } : undefined, certs: 2 });
      tx.outputs[0]!.address = scriptAddressOf(otherScript, 0);
      expect(decodeProtocolTransaction(tx, view).facts, purpose).to.deep.equal([]);
    }
  });

  it("reads state and pointer outputs at the proxy script whatever their stake credential (the validators check only the payment part)", () => {
    const staked = CSL.BaseAddress.new(
      0,
      CSL.Credential.from_scripthash(CSL.ScriptHash.from_hex(policy)),
      CSL.Credential.from_keyhash(CSL.Ed25519KeyHash.from_hex(owner)),
    )
      .to_address()
      .to_bech32();
    expect(isProxyAddress(staked, view)).to.equal(true);
    expect(isProxyAddress(scriptAddressOf(otherScript, 0), view)).to.equal(false);

    const update = aTx("UPDATE_STATE", { certs: 1 });
    update.outputs[0]!.address = staked;
    const facts = decodeProtocolTransaction(update, view).facts;
    expect(facts.map((f) => f.type)).to.deep.equal(["state.updated", "certificate.issued"]);
    expect(facts[0]).to.deep.include({ stateId, address: staked, outRef: { txHash: "77".repeat(32), index: 0 } });

    const pointerTx = aTx("UPDATE_STATE", {
      datum: dataToCborHex(encodeProxyDatum({ scriptPointer: stateHash, scriptOwner: owner })),
      withdrawFrom: [otherScript],
    });
    pointerTx.outputs[0]!.address = staked;
    (pointerTx.outputs[0]!.value as unknown as Record<string, unknown>)[policy] = { [pointerName]: 1n };
    expect(decodeProtocolTransaction(pointerTx, view).facts).to.deep.equal([
      { type: "pointer.set", scriptPointer: stateHash, owner, outRef: { txHash: "77".repeat(32), index: 0 } },
    ]);
  });

  it("reports an undecodable datum as an error instead of throwing, and ignores failed (collateral) transactions", () => {
    const bad = decodeProtocolTransaction(aTx("UPDATE_STATE", { datum: "d87980" }), view);
    expect(bad.errors).to.have.length(1);
    expect(bad.errors[0]).to.match(/state redeemer/);
    const failed = { ...aTx("UPDATE_STATE"), spends: "collaterals" } as Transaction;
    expect(decodeProtocolTransaction(failed, view)).to.deep.equal({ facts: [], errors: [] });
  });
});
