// A funded in-process devnet with a controllable clock, and small helpers to expect Ogmios error codes.
import { expect } from "chai";
import { createTransactionSubmissionClient, type TransactionSubmission } from "@cardano-ogmios/client";
import { Devnet, DevnetError, startDevnetServer, type DevnetOptions, type DevnetServer } from "../../../shared/devnet";
import { contextFor } from "../../../fixtures/devnet/ogmios-client-fixture";
import { buildWithMinFee, newKey, type OutRef, type TestKey } from "../../../fixtures/devnet/tx-fixtures";

export const GENESIS_LOVELACE = 1_000_000_000_000n;

export interface Fixture {
  devnet: Devnet;
  alice: TestKey;
  bob: TestKey;
  clock: { now: number; advanceSlots(n: number): void };
  /** The genesis output of `key`. */
  genesisOf(key: TestKey): OutRef;
  /** The largest confirmed output of `key` and its lovelace. */
  largestOf(key: TestKey): OutRef & { lovelace: bigint };
  /**
   * Submits through the real Ogmios client and a devnet server (so every reply, errors included, passes the schema
   * conformance check); requires `fundedDevnet(…, { overTheWire: true })`.
   */
  submit(cborHex: string): Promise<string>;
  close(): Promise<void>;
}

export async function fundedDevnet(opts: Partial<DevnetOptions> = {}, wire: { overTheWire?: boolean } = {}): Promise<Fixture> {
  const alice = newKey();
  const bob = newKey();
  const clock = {
    now: 1_800_000_000_000,
    advanceSlots(n: number) {
      this.now += n * 1000;
    },
  };
  const devnet = await Devnet.create({
    genesis: [
      { address: alice.address, lovelace: GENESIS_LOVELACE },
      { address: bob.address, lovelace: GENESIS_LOVELACE },
    ],
    clock: () => clock.now,
    ...opts,
  });
  clock.advanceSlots(100);
  const genesisOf = (key: TestKey): OutRef => {
    const utxo = devnet.queryUtxo({ addresses: [key.address] })[0]!;
    return { txHash: utxo.transaction.id, index: utxo.index };
  };
  const largestOf = (key: TestKey) => {
    const utxos = devnet.queryUtxo({ addresses: [key.address] }).sort((a, b) => Number(b.value.ada.lovelace - a.value.ada.lovelace));
    const utxo = utxos[0]!;
    return { txHash: utxo.transaction.id, index: utxo.index, lovelace: utxo.value.ada.lovelace };
  };
  let server: DevnetServer | undefined;
  let client: TransactionSubmission.TransactionSubmissionClient | undefined;
  if (wire.overTheWire) {
    server = await startDevnetServer(devnet, { port: 0 });
    client = await createTransactionSubmissionClient(await contextFor(server));
  }
  const submit = (cborHex: string) => {
    if (!client) throw new Error("fundedDevnet was created without { overTheWire: true }");
    return client.submitTransaction(cborHex);
  };
  const close = async () => {
    await client?.shutdown();
    await server?.close();
    await devnet.close();
  };
  return { devnet, alice, bob, clock, genesisOf, largestOf, submit, close };
}

/**
 * Awaits `promise`, expecting an Ogmios error `code` — a DevnetError in process, or the JSON-RPC error reply the
 * Ogmios client rejects with over the wire; fails if it resolves.
 */
export async function expectDevnetError(
  promise: Promise<unknown>,
  code: number,
): Promise<{ code: number; message: string; data: unknown }> {
  let outcome: unknown;
  try {
    outcome = await promise;
  } catch (err) {
    // In process: DevnetError. Over the wire: the client's JSONRPCError (code/message/data) or the raw error reply.
    const wire = err as { code?: number; message: string; data?: unknown; error?: { code: number; message: string; data?: unknown } };
    const e =
      err instanceof DevnetError
        ? { code: err.code, message: err.message, data: err.payload }
        : typeof wire.code === "number"
          ? (wire as { code: number; message: string; data?: unknown })
          : wire.error;
    expect(e, `not an Ogmios error: ${String(err)}`).to.not.equal(undefined);
    const detail = `${e!.message} ${JSON.stringify(e!.data, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`;
    expect(e!.code, detail).to.equal(code);
    return { code: e!.code, message: e!.message, data: e!.data };
  }
  expect.fail(`expected Ogmios error ${code}, got success: ${String(outcome)}`);
}

/** Alice pays Bob `lovelace` from `from` (default: her largest output) at exactly the minimum fee, change back to her. */
export function alicePaysBob(f: Fixture, lovelace: bigint, opts: { from?: OutRef & { lovelace: bigint }; ttl?: number } = {}) {
  const from = opts.from ?? f.largestOf(f.alice);
  return buildWithMinFee((fee) => ({
    inputs: [from],
    outputs: [
      { address: f.bob.address, lovelace },
      { address: f.alice.address, lovelace: from.lovelace - lovelace - fee },
    ],
    fee,
    signers: [f.alice.sk],
    ...(opts.ttl === undefined ? {} : { ttl: opts.ttl }),
  }));
}
