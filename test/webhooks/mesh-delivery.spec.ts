/**
 * Issue 26's webhooks end to end, as a user would use them: the real mesh on the devnet (gateway, indexer, verifier,
 * tx-builder, submitter, events), endpoints registered through `POST /api/v1/webhooks` for receivers on 127.0.0.1
 * (the operator's WEBHOOKS_ALLOW_PRIVATE_NETWORKS on), certificates issued through the API. The receivers get the
 * certificate's `certificate.anchored` and `transaction.confirmed`, each verified with the Standard Webhooks
 * project's own library; a receiver failing five times gets the event on the sixth attempt, always under the same
 * webhook-id; a delivery that fails every attempt lands in the dead letters, and a replay delivers it again with its
 * first webhook-id; two dead deliveries in a row disable the endpoint, which the event log announces as
 * `endpoint.disabled` (and another endpoint following `endpoint:<id>` receives); an address's events need a CIP-30
 * signature of the address's key over a challenge naming the endpoint's URL.
 *
 * The mesh runs on the devnet's clock, which moves only when the test moves it: the retry schedule is all zeros
 * (WEBHOOKS_RETRY_SCHEDULE), so a retry is due at once, and the signatures are checked at the mesh's time.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../../fixtures/issuance/issuance-world";
import { errorBody, http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { enterpriseAddressOfKeyHash } from "../../shared/csl/address";
import type { PublicEvent } from "../../shared/events/event-types";
import type { WrittenTip } from "../../shared/indexer/indexer";
import { generateMnemonic, type Wallet } from "../../shared/wallet";
import { ReferenceWebhook } from "./reference-verifier";
import { Receiver, type Received } from "./support";

/** One attempt and five retries, each due at once. */
const ATTEMPTS = 6;
const DISABLE_AFTER = 2;
const hash = () => randomBytes(32).toString("hex");
const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");

interface Registered {
  id: string;
  secret: string;
  managementToken: string;
}

interface Delivered {
  id: string;
  type: string;
  eventId: string;
  subjects: string[];
  data: Record<string, unknown>;
}

describe("webhooks through the mesh: registration, signed deliveries, retries, dead letters, replay, disabling", function () {
  this.timeout(240_000);
  let w: IssuanceWorld;
  const receivers: Receiver[] = [];
  const call = <T>(action: string, params: Record<string, unknown> = {}) => w.mesh.broker.call<T, Record<string, unknown>>(action, params);
  const api = (path: string) => `${w.mesh.api}${path}`;
  const auth = (r: Registered) => ({ Authorization: `Bearer ${r.managementToken}` });

  before(async () => {
    w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "events"], {
      EVENTS_FINALITY_DEPTH: "2",
      USER_ACTION_SIGNING_MNEMONIC: generateMnemonic(),
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOKS_RETRY_SCHEDULE: Array.from({ length: ATTEMPTS - 1 }, () => "0").join(","),
      WEBHOOKS_DISABLE_AFTER_FAILED_DELIVERIES: String(DISABLE_AFTER),
    });
    await w.mintDefaultBootstrap();
    await w.ensureCollateral(w.f.actors.alice);
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await w?.close();
  });

  async function receiver(): Promise<Receiver> {
    const r = await Receiver.start();
    receivers.push(r);
    return r;
  }

  /** Waits until the indexer has the devnet's tip, then has the events service derive everything up to it. */
  async function caughtUp(): Promise<void> {
    const height = w.f.chain.devnet.height;
    await pollUntil(
      async () => ((await call<{ tip?: WrittenTip }>("indexer.status")).tip?.height === height ? true : undefined),
      "indexer at the tip",
    );
    expect(await call("events.catchUp")).to.equal(true);
  }

  async function register(body: Record<string, unknown>): Promise<Registered> {
    const res = await postJson(api("/webhooks"), body);
    expect(res.status, res.text).to.equal(201);
    return res.json as Registered;
  }

  async function issue(wallet: Wallet, h: string): Promise<string> {
    const { txId } = await w.issue(
      { type: "default", address: wallet.address, certificates: [{ hash: h, metadata: { uv_tid: "hook" } }] },
      [wallet],
    );
    await caughtUp();
    return txId;
  }

  /**
   * The receiver's accepted deliveries once there are `n`, each verified by the reference library at the mesh's time,
   * in log order (two deliveries to one endpoint may be in flight at once, so they may arrive in either order).
   */
  async function delivered(r: Receiver, secret: string, n: number, what: string): Promise<Delivered[]> {
    const got = await pollUntil(async () => (r.accepted().length >= n ? r.accepted() : undefined), what, 30_000);
    return got.map((m) => verified(m, secret)).sort((a, b) => Number(a.eventId) - Number(b.eventId));
  }

  function verified(m: Received, secret: string): Delivered {
    const body = new ReferenceWebhook(secret).verify(m.body, m.headers as Record<string, string>, w.f.chain.now()) as Omit<Delivered, "id">;
    expect(m.headers["webhook-id"]).to.equal(`evt_${body.eventId}`);
    expect(m.headers["content-type"]).to.equal("application/json");
    return { id: String(m.headers["webhook-id"]), ...body };
  }

  /** The log's events after `after` (the test's own view, to compare the deliveries with). */
  async function logAfter(after: string): Promise<PublicEvent[]> {
    return (await call<{ events: PublicEvent[] }>("events.after", { after, limit: 500 })).events;
  }
  const latestId = async () => (await call<{ next: string }>("events.after", {})).next;

  it("delivers a certificate's certificate.anchored and transaction.confirmed, signed as Standard Webhooks, to an endpoint of its hash", async () => {
    const { alice } = w.f.actors;
    const r = await receiver();
    const h = hash();
    const mark = await latestId();
    const endpoint = await register({
      url: r.url("/certs"),
      subjects: [`hash:${h}`],
      types: ["certificate.anchored", "transaction.confirmed"],
    });
    const txId = await issue(alice, h);
    const got = await delivered(r, endpoint.secret, 2, "both deliveries");
    const address = enterpriseAddressOfKeyHash(alice.paymentKeyHash, 0);
    expect(got.map((d) => d.type)).to.deep.equal(["certificate.anchored", "transaction.confirmed"]);
    expect(got[0]!.data).to.deep.include({ hash: h, transactionHash: txId, address, position: 0 });
    expect(got[1]!.data).to.deep.include({ transactionHash: txId, depth: 1, final: false });
    // the same events, ids and subjects as the log serves them
    const logged = (await logAfter(mark)).filter((e) => e.subjects.includes(`hash:${h}`) && e.type !== "transaction.submitted");
    expect(got.map((d) => [d.eventId, d.type, d.subjects])).to.deep.equal(logged.slice(0, 2).map((e) => [e.id, e.type, e.subjects]));
    // the next block deepens the transaction to its final confirmation: delivered too
    w.f.chain.devnet.produceEmptyBlocks(1);
    await caughtUp();
    const more = await delivered(r, endpoint.secret, 3, "the final confirmation");
    expect(more[2]).to.deep.include({ type: "transaction.confirmed" });
    expect(more[2]!.data).to.deep.include({ depth: 2, final: true });
    expect(r.received.map((m) => m.path)).to.deep.equal(["/certs", "/certs", "/certs"]);
    // never anything else, nor twice
    expect(new Set(r.received.map((m) => m.headers["webhook-id"])).size).to.equal(3);
  });

  it("gives an event to a receiver failing five times on the sixth attempt, every attempt under the same webhook-id", async () => {
    const r = await receiver();
    r.script = [500, 503, 500, 502, 500];
    const h = hash();
    const endpoint = await register({ url: r.url(), subjects: [`hash:${h}`], types: ["certificate.anchored"] });
    await issue(w.f.actors.alice, h);
    const [event] = await delivered(r, endpoint.secret, 1, "the delivery that succeeds");
    expect(r.received.map((m) => m.status)).to.deep.equal([500, 503, 500, 502, 500, 200]);
    expect(new Set(r.received.map((m) => m.headers["webhook-id"]))).to.deep.equal(new Set([event!.id]));
    // every attempt is signed and carries the same body
    for (const m of r.received) expect(verified(m, endpoint.secret)).to.deep.equal(event);
    // and once delivered, no attempt more
    await caughtUp();
    const view = (await http(api(`/webhooks/${endpoint.id}`), { headers: auth(endpoint) })).json as { consecutiveFailures: number };
    expect(view.consecutiveFailures).to.equal(0);
    expect(r.received).to.have.length(ATTEMPTS);
  });

  it("keeps a delivery that failed every attempt in the dead letters; a replay from its event delivers it again under its first webhook-id", async () => {
    const r = await receiver();
    r.fallback = 500;
    const h = hash();
    const endpoint = await register({ url: r.url("/dead"), subjects: [`hash:${h}`], types: ["certificate.anchored"] });
    await issue(w.f.actors.alice, h);
    const page = await pollUntil(async () => {
      const res = await http(api(`/webhooks/${endpoint.id}/dead-letters`), { headers: auth(endpoint) });
      const body = res.json as { items: { eventId: string; attempts: number; lastStatus: number; messageId: string; eventType: string }[] };
      return body.items.length > 0 ? body : undefined;
    }, "the dead letter");
    expect(r.received).to.have.length(ATTEMPTS);
    const [dead] = page.items;
    expect(dead).to.deep.include({
      attempts: ATTEMPTS,
      lastStatus: 500,
      eventType: "certificate.anchored",
      messageId: `evt_${dead!.eventId}`,
    });
    expect(page).to.not.have.property("next");
    const view = (await http(api(`/webhooks/${endpoint.id}`), { headers: auth(endpoint) })).json as {
      status: string;
      consecutiveFailures: number;
    };
    expect(view).to.deep.include({ status: "active", consecutiveFailures: 1 });

    // the receiver is fixed: replay from the dead letter's event
    r.fallback = 200;
    const replay = await postJson(api(`/webhooks/${endpoint.id}/replay`), { fromEventId: dead!.eventId }, auth(endpoint));
    expect(replay.status, replay.text).to.equal(200);
    expect(replay.json).to.deep.include({ replay: 1, enqueued: 1 });
    const [again] = await delivered(r, endpoint.secret, 1, "the replayed delivery");
    expect(again!.id).to.equal(dead!.messageId);
    expect(again!.eventId).to.equal(dead!.eventId);
    const fixed = (await http(api(`/webhooks/${endpoint.id}`), { headers: auth(endpoint) })).json as { consecutiveFailures: number };
    expect(fixed.consecutiveFailures).to.equal(0);
    // a replay from a later id than the log holds queues nothing
    const nothing = await postJson(api(`/webhooks/${endpoint.id}/replay`), { fromEventId: "999999" }, auth(endpoint));
    expect(nothing.json).to.deep.include({ replay: 2, enqueued: 0, scanned: 0 });
  });

  it(`disables an endpoint after ${DISABLE_AFTER} dead deliveries in a row and appends endpoint.disabled, which an endpoint following it receives`, async () => {
    const failing = await receiver();
    failing.fallback = 500;
    const watcher = await receiver();
    const h = hash();
    const endpoint = await register({ url: failing.url("/down"), subjects: [`hash:${h}`] });
    const watch = await register({ url: watcher.url("/watch"), subjects: [`endpoint:${endpoint.id}`] });
    const mark = await latestId();
    // two events (the certificate and its transaction's confirmation): both die, and the endpoint with them
    await issue(w.f.actors.alice, h);
    const [notice] = await delivered(watcher, watch.secret, 1, "the endpoint.disabled delivery");
    expect(notice).to.deep.include({ type: "endpoint.disabled", subjects: [`endpoint:${endpoint.id}`] });
    expect(notice!.data).to.deep.equal({ endpointId: endpoint.id, reason: "FAILED_DELIVERIES", consecutiveFailures: DISABLE_AFTER });
    const logged = (await logAfter(mark)).filter((e) => e.type === "endpoint.disabled");
    expect(logged.map((e) => [e.id, e.subjects, e.block])).to.deep.equal([[notice!.eventId, [`endpoint:${endpoint.id}`], null]]);
    expect(JSON.stringify(logged), "the public log names neither the URL nor the owner").to.not.include(failing.url("/down"));
    expect(failing.received).to.have.length(DISABLE_AFTER * ATTEMPTS);

    const view = (await http(api(`/webhooks/${endpoint.id}`), { headers: auth(endpoint) })).json as Record<string, unknown>;
    expect(view).to.deep.include({ status: "disabled", disabledReason: "FAILED_DELIVERIES" });
    // disabled: no replay, nothing delivered from the next events
    const refused = await postJson(api(`/webhooks/${endpoint.id}/replay`), { fromEventId: mark }, auth(endpoint));
    expect([refused.status, errorBody(refused).error]).to.deep.equal([409, "WEBHOOK_ENDPOINT_DISABLED"]);
    w.f.chain.devnet.produceEmptyBlocks(1);
    await caughtUp();
    // enabled again, fixed: the next events arrive (the final confirmation of the next block)
    failing.fallback = 200;
    const enabled = await postJson(api(`/webhooks/${endpoint.id}/enable`), {}, auth(endpoint));
    expect(enabled.json).to.deep.include({ status: "active", consecutiveFailures: 0 });
    await issue(w.f.actors.alice, h); // the same hash again: a new certificate of it
    const after = await delivered(failing, endpoint.secret, 2, "deliveries after enabling");
    expect(after.map((d) => d.type)).to.deep.equal(["certificate.anchored", "transaction.confirmed"]);
    expect(after[1]!.data).to.deep.include({ depth: 1 });
  });

  it("delivers an address's events to an endpoint whose registration proves the address with a CIP-30 signature over a challenge naming its URL", async () => {
    const { alice, bob } = w.f.actors;
    const r = await receiver();
    const address = enterpriseAddressOfKeyHash(alice.paymentKeyHash, 0);
    const url = r.url("/alice");
    const challenge = async (wallet: Wallet, forUrl = url) => {
      const res = await postJson(api("/webhooks/challenge"), { address: wallet.address, url: forUrl });
      expect(res.status, res.text).to.equal(200);
      const c = res.json as { address: string; timestamp: number; message: string; signature: string };
      const signed = wallet.signData(hex(c.message), wallet.address);
      return {
        address: c.address,
        timestamp: c.timestamp,
        message: c.message,
        signature: c.signature,
        userSignature: signed.signature,
        userPublicKey: signed.key,
      };
    };
    const body = (proofs: unknown[]) => ({ url, subjects: [`address:${address}`], types: ["certificate.anchored"], addressProofs: proofs });

    // bob's proof is bob's: it proves no subject of alice's
    const bobs = await postJson(api("/webhooks"), body([await challenge(bob)]));
    expect([bobs.status, errorBody(bobs).error]).to.deep.equal([400, "INVALID_WEBHOOK_REQUEST"]);
    // a challenge for another URL does not bind this one
    const elsewhere = await postJson(api("/webhooks"), body([await challenge(alice, r.url("/other"))]));
    expect([elsewhere.status, errorBody(elsewhere).error]).to.deep.equal([400, "INVALID_MESSAGE"]);
    // alice's challenge signed by bob's key
    const forged = await challenge(alice);
    const bobSigned = bob.signData(hex(forged.message), bob.address);
    const wrongKey = await postJson(
      api("/webhooks"),
      body([{ ...forged, userSignature: bobSigned.signature, userPublicKey: bobSigned.key }]),
    );
    expect([wrongKey.status, errorBody(wrongKey).error]).to.deep.equal([401, "INVALID_SIGNATURE"]);

    const proof = await challenge(alice);
    const res = await postJson(api("/webhooks"), body([proof]));
    expect(res.status, res.text).to.equal(201);
    const endpoint = res.json as Registered;
    const again = await postJson(api("/webhooks"), body([proof]));
    expect([again.status, errorBody(again).error]).to.deep.equal([409, "CHALLENGE_REPLAYED"]);

    const h = hash();
    await issue(alice, h);
    const [event] = await delivered(r, endpoint.secret, 1, "alice's certificate");
    expect(event).to.deep.include({ type: "certificate.anchored" });
    expect(event!.subjects).to.include(`address:${address}`);
    expect(event!.data).to.deep.include({ hash: h, address });
  });
});
