/**
 * The connected-goods service over HTTP on the embedded mesh (gateway, indexer, tx-builder, submitter,
 * connected-goods on one devnet): the read latency of a social hub (p50/p99, sequential requests) against the
 * gateway's own floor measured in the same run (`GET /extensions`, no service call), the first read of an item
 * (hub-key derivation, then cached), and the build times of a mint of 20 items and of claims with and without the
 * item's name. Requests and the services share the machine's cores: read the figures as relative.
 * `npm run bench -- connected-goods-service`.
 */
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnetServer } from "../shared/devnet";
import { createStore } from "../shared/store";
import type { Wallet } from "../shared/wallet";
import { http, pollUntil, postJson } from "../fixtures/mesh/helpers";
import { startMesh } from "../fixtures/mesh/mesh-harness";
import { ProtocolFixture } from "../fixtures/onchain/protocol-fixture";
import { percentile } from "./percentile";

const READS = 300;
const ITEMS = Array.from({ length: 20 }, (_, i) => `bench-${String(i + 1).padStart(4, "0")}`);
const passwordOf = (name: string) => `bench password ${name}`;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: Math.round((performance.now() - t0) * 100) / 100, value };
}

async function latencies(n: number, fn: () => Promise<{ status: number }>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const { ms, value } = await timed(fn);
    if (value.status !== 200) throw new Error(`read answered ${value.status}`);
    samples.push(ms);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

export default async function (): Promise<Record<string, unknown>> {
  const f = await ProtocolFixture.create("shipped");
  const server = await startDevnetServer(f.chain.devnet, { port: 0 });
  const store = await createStore({ inMemory: true });
  const mesh = await startMesh({
    services: ["gateway", "indexer", "tx-builder", "submitter", "connected-goods"],
    store,
    chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
    env: {
      DATA_DIR: mkdtempSync(join(tmpdir(), "goods-bench-")),
      PROXY_TX_HASH: f.oneShot.transaction.id,
      PROXY_OUTPUT_INDEX: String(f.oneShot.index),
      SERVICE_KEY_HASH: f.actors.service.paymentKeyHash,
      SERVICE_ADDRESS: f.actors.service.address,
    },
    now: () => f.chain.now(),
  });
  const goods = `${mesh.api}/extension/connected-goods`;
  const submit = async (w: Wallet, unsigned: string) => {
    const res = await postJson(`${mesh.api}/transaction/submit`, { transaction: unsigned, witnessSet: w.signTx(unsigned) });
    if (res.status !== 200) throw new Error(`submit: ${res.text}`);
    return (res.json as { transactionHash: string }).transactionHash;
  };
  const confirm = async (...txs: string[]) => {
    f.chain.devnet.produceBlock();
    for (const id of txs) {
      await pollUntil(async () => ((await mesh.broker.call("indexer.transaction", { id })) ? true : undefined), `${id} indexed`);
    }
  };
  const ok = <T extends { status: number; text: string }>(res: T, what: string): T => {
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res;
  };
  try {
    const { issuer, alice, bob } = f.actors;
    const collaterals: string[] = [];
    for (const w of [issuer, alice, bob]) {
      const res = ok(await postJson(`${mesh.api}/transaction/prepare-collateral`, { senderAddress: w.address }), "collateral");
      collaterals.push(await submit(w, (res.json as { unsignedTransaction: string }).unsignedTransaction));
    }
    await confirm(...collaterals);

    const mint = await timed(async () =>
      ok(
        await postJson(`${goods}/mint/batch`, {
          address: issuer.address,
          items: ITEMS.map((n) => ({ asset_name: n, password: passwordOf(n) })),
        }),
        "mint",
      ),
    );
    const minted = mint.value.json as { batch_id: string; unsignedTransaction: string };
    await confirm(await submit(issuer, minted.unsignedTransaction));
    const batchId = minted.batch_id;
    const claim = (name: string, w: Wallet, named: boolean) =>
      timed(async () =>
        ok(
          await postJson(`${goods}/claim/item`, {
            password: passwordOf(name),
            batch_id: batchId,
            user_address: w.address,
            social_hub: { name: "Bench owner", website: "https://example.org", x: "@bench" },
            ...(named ? { asset_name: name } : {}),
          }),
          "claim",
        ),
      );
    const named = await claim("bench-0001", alice, true);
    await submit(alice, named.value.text);
    // without the name the service tries the password on every unclaimed item in turn: the last one is the worst case
    const searched = await claim("bench-0020", bob, false);
    await confirm(await submit(bob, searched.value.text));

    const itemId = createHash("sha256").update(passwordOf("bench-0001")).digest("hex");
    const read = () => http(`${goods}/${batchId}/${itemId}`);
    const firstRead = await timed(read);
    const hub = await latencies(READS, read);
    const floor = await latencies(READS, () => http(`${mesh.api}/extensions`));
    return {
      note: "sequential HTTP requests from the same process; p50/p99 in ms",
      socialHubRead: { ...hub, firstReadMs: firstRead.ms, requests: READS },
      gatewayFloor: floor,
      readP50OverFloor: Math.round((hub.p50 / floor.p50) * 100) / 100,
      buildMs: {
        "mint batch of 20 (20 item-key derivations)": mint.ms,
        "claim with asset_name (1 derivation)": named.ms,
        "claim without asset_name, last of 19 unclaimed (19 derivations)": searched.ms,
      },
    };
  } finally {
    await mesh.stop();
    await store.close();
    await server.close();
    await f.chain.devnet.close();
  }
}
