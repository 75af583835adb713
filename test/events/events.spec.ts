/**
 * Issue 26's public events through the real mesh, the devnet and HTTP: certificates issued through the API give
 * `certificate.anchored` and `transaction.confirmed` at each block up to the finality depth; rollbacks of 1, 3 and 10
 * blocks announce the rolled-back transactions and certificates newest first, then their confirmations again, in
 * order, when the next block takes them back; a transaction of no protocol fact the service submitted is confirmed
 * too; `GET /api/v1/events` streams the same events live to a plain HTTP client, and a reconnect with Last-Event-ID
 * gets exactly the events it missed; the calendar's submissions give `receipt.checkpointed`, then `receipt.anchored`
 * once the round's transaction is in a block; bad filters are 400 JSON and streams beyond the limits 429 JSON.
 */
import { expect } from "chai";
import { request, type IncomingMessage } from "node:http";
import { randomBytes } from "node:crypto";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../../fixtures/issuance/issuance-world";
import { errorBody, http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { enterpriseAddressOfKeyHash } from "../../shared/csl/address";
import type { PublicEvent } from "../../shared/events/event-types";
import type { WrittenTip } from "../../shared/indexer/indexer";
import type { SubmitAnswer } from "../../shared/merkle";
import type { TransactionRecord } from "../../shared/records/protocol-records";
import { generateMnemonic, Wallet } from "../../shared/wallet";

const FINALITY = 4;
const hash = () => randomBytes(32).toString("hex");

/** A Server-Sent Events client over node:http, parsing the stream itself (fetch would wait for the end of it). */
class EventStreamClient {
  readonly events: PublicEvent[] = [];
  /** `event:` fields, in order, to compare with the events' own types */
  readonly eventFields: string[] = [];
  comments = 0;
  private buffer = "";

  private constructor(
    readonly response: IncomingMessage,
    private readonly close: () => void,
  ) {
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => this.take(chunk));
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { Accept: "text/event-stream", ...headers } }, (res) =>
        resolve(new EventStreamClient(res, () => req.destroy())),
      );
      req.on("error", reject);
      req.end();
    });
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const fields = frame.split("\n");
      if (fields.every((f) => f.startsWith(":"))) this.comments += 1;
      const field = (name: string) => fields.find((f) => f.startsWith(`${name}: `))?.slice(name.length + 2);
      const data = field("data");
      if (data === undefined) continue;
      const event = JSON.parse(data) as PublicEvent;
      expect(field("id"), "the id: field is the event's id").to.equal(event.id);
      this.eventFields.push(field("event") ?? "");
      this.events.push(event);
    }
  }

  /** Waits until the stream has delivered at least `n` events. */
  async received(n: number, what: string): Promise<PublicEvent[]> {
    return pollUntil(async () => (this.events.length >= n ? this.events.slice() : undefined), what, 20_000);
  }

  end(): void {
    this.close();
  }
}

describe("events: the public event log, its producers and Server-Sent Events", function () {
  this.timeout(180_000);
  const mnemonic = generateMnemonic();
  const serviceWallet = Wallet.fromMnemonic(mnemonic, { networkId: 0 });
  let w: IssuanceWorld;
  const streams: EventStreamClient[] = [];
  const devnet = () => w.f.chain.devnet;
  const call = <T>(action: string, params: Record<string, unknown> = {}) => w.mesh.broker.call<T, Record<string, unknown>>(action, params);

  before(async () => {
    w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "calendar", "events"], {
      EVENTS_FINALITY_DEPTH: String(FINALITY),
      EVENTS_MAX_STREAMS: "5",
      EVENTS_MAX_STREAMS_PER_CLIENT: "3",
      // the per-client limit counts X-Forwarded-For's entry, so one test process can be several clients
      TRUST_PROXY: "1",
      SERVICE_MNEMONIC: mnemonic,
      BATCH_INTERVAL_MS: "1500",
      LOG_INTEGRATE_MS: "200",
    });
    await w.mintDefaultBootstrap();
    const { alice, bob } = w.f.actors;
    await w.ensureCollateral(alice);
    await w.ensureCollateral(bob);
    await w.fundServiceWallet(serviceWallet);
    await caughtUp();
  });
  after(async () => {
    streams.forEach((s) => s.end());
    await w?.close();
  });

  /** Waits until the indexer has the devnet's tip, then has the events service derive everything up to it. */
  async function caughtUp(): Promise<void> {
    const height = devnet().height;
    await pollUntil(
      async () => ((await call<{ tip?: WrittenTip }>("indexer.status")).tip?.height === height ? true : undefined),
      "indexer at the tip",
    );
    expect(await call("events.catchUp")).to.equal(true);
  }

  const latestId = async () => (await call<{ next: string }>("events.after", {})).next;

  /** Every event after `after`, in order, read page by page. */
  async function eventsAfter(after: string): Promise<PublicEvent[]> {
    const all: PublicEvent[] = [];
    for (let from = after; ;) {
      const page = await call<{ events: PublicEvent[]; next: string }>("events.after", { after: from, limit: 500 });
      all.push(...page.events);
      if (page.next === from) return all;
      from = page.next;
    }
  }

  async function emptyBlocks(n: number): Promise<void> {
    devnet().produceEmptyBlocks(n);
    await caughtUp();
  }

  /** Issues `count` certificates from `wallet` in one transaction, confirmed in the next block. */
  async function issue(wallet: Wallet, count = 1): Promise<{ txId: string; hashes: string[] }> {
    const hashes = Array.from({ length: count }, hash);
    const { txId } = await w.issue(
      { type: "default", address: wallet.address, certificates: hashes.map((h) => ({ hash: h, metadata: { uv_tid: "events" } })) },
      [wallet],
    );
    await caughtUp();
    return { txId, hashes };
  }

  const txOf = (e: PublicEvent) => (e.data as { transactionHash?: string }).transactionHash;
  const positionOf = (e: PublicEvent) => (e.data as { position?: number }).position;
  const depthOf = (e: PublicEvent) => (e.data as { depth?: number }).depth;
  const about = (txIds: readonly string[]) => (e: PublicEvent) => txIds.includes(txOf(e) ?? "");
  /** An event as [type, transaction, position or depth]: what the order tests compare. */
  const shape = (e: PublicEvent) => [e.type, txOf(e), positionOf(e) ?? depthOf(e) ?? null];

  describe("the chain's events", function () {
    it("announces each certificate and its transaction's confirmation, then one confirmation per block up to the finality depth", async () => {
      const { alice } = w.f.actors;
      const mark = await latestId();
      const { txId, hashes } = await issue(alice, 2);
      const record = (await call<TransactionRecord>("indexer.transaction", { id: txId }))!;
      const included = { slot: record.slot, id: record.blockId, height: record.height };
      const mine = (await eventsAfter(mark)).filter(about([txId]));
      expect(mine.map(shape)).to.deep.equal([
        ["transaction.submitted", txId, null],
        ["certificate.anchored", txId, 0],
        ["certificate.anchored", txId, 1],
        ["transaction.confirmed", txId, 1],
      ]);
      const address = enterpriseAddressOfKeyHash(alice.paymentKeyHash, 0);
      const [submitted, first, second, confirmed] = mine as [PublicEvent, PublicEvent, PublicEvent, PublicEvent];
      expect(submitted).to.deep.include({ block: null, subjects: [`transaction:${txId}`] });
      expect(first).to.deep.include({
        block: included,
        timestamp: new Date(record.time).toISOString(),
        subjects: [`hash:${hashes[0]}`, `transaction:${txId}`, `address:${address}`],
      });
      expect(first.data).to.deep.include({ hash: hashes[0], issuer: alice.paymentKeyHash, address, transactionHash: txId, position: 0 });
      expect(second.data).to.deep.include({ hash: hashes[1], position: 1 });
      expect(confirmed.data).to.deep.equal({ transactionHash: txId, depth: 1, final: false, includedIn: included });
      expect(confirmed.subjects).to.include.members([
        `transaction:${txId}`,
        `hash:${hashes[0]}`,
        `hash:${hashes[1]}`,
        `address:${address}`,
      ]);
      expect(mine.map((e) => Number(e.id))).to.deep.equal(mine.map((e) => Number(e.id)).sort((a, b) => a - b));

      // each later block deepens it, up to the finality depth; the block after that adds nothing
      for (let depth = 2; depth <= FINALITY + 1; depth++) {
        const before = await latestId();
        await emptyBlocks(1);
        const deeper = (await eventsAfter(before)).filter(about([txId]));
        if (depth > FINALITY) {
          expect(deeper, "nothing after the final confirmation").to.deep.equal([]);
          continue;
        }
        expect(deeper.map(shape)).to.deep.equal([["transaction.confirmed", txId, depth]]);
        expect(deeper[0]!.block?.height, "the block that made it this deep").to.equal(included.height + depth - 1);
        expect(deeper[0]!.data).to.deep.include({ final: depth === FINALITY, includedIn: included });
      }
    });

    for (const { blocks, withTransactions } of [
      { blocks: 1, withTransactions: [0] },
      { blocks: 3, withTransactions: [0, 2] },
      { blocks: 10, withTransactions: [0, 4, 9] },
    ]) {
      it(`a rollback of ${blocks} block(s) announces what they held rolled back, newest first, then confirmed again in order`, async () => {
        const { alice, bob } = w.f.actors;
        const issued: { txId: string; hashes: string[] }[] = [];
        for (let i = 0; i < blocks; i++) {
          if (withTransactions.includes(i)) issued.push(await issue(issued.length % 2 === 0 ? alice : bob, issued.length + 1));
          else await emptyBlocks(1);
        }
        const txIds = issued.map((t) => t.txId);
        const tipHeight = devnet().height;
        const mark = await latestId();
        devnet().rollback(blocks);
        await caughtUp();
        const undone = await eventsAfter(mark);
        // newest first: each transaction's rollback, then its certificates', last position first
        const expected = [...issued]
          .reverse()
          .flatMap(({ txId, hashes }) => [
            ["transaction.rolled_back", txId, null],
            ...hashes.map((_, i) => ["certificate.rolled_back", txId, hashes.length - 1 - i]),
          ]);
        expect(undone.map((e) => [e.type, txOf(e), positionOf(e) ?? null])).to.deep.equal(expected);
        for (const e of undone) expect(e.block?.height, "the point the chain went back to").to.equal(tipHeight - blocks);
        expect(undone.filter((e) => e.type === "certificate.rolled_back").map((e) => (e.data as { hash: string }).hash)).to.deep.equal(
          [...issued].reverse().flatMap((t) => [...t.hashes].reverse()),
        );

        // the rolled-back transactions went back to the mempool: the next block takes them, in their order
        const again = await latestId();
        devnet().produceBlock();
        await caughtUp();
        const back = (await eventsAfter(again)).filter(about(txIds));
        expect(back.map(shape)).to.deep.equal(
          issued.flatMap(({ txId, hashes }) => [
            ...hashes.map((_, i) => ["certificate.anchored", txId, i]),
            ["transaction.confirmed", txId, 1],
          ]),
        );
        const newBlock = back[0]!.block!;
        expect(newBlock.height).to.equal(tipHeight - blocks + 1);
        for (const e of back) expect(e.block).to.deep.equal(newBlock);

        // and deepen again to the finality depth
        const deepening = await latestId();
        await emptyBlocks(FINALITY - 1);
        const deeper = (await eventsAfter(deepening)).filter(about(txIds));
        expect(deeper.map(shape)).to.deep.equal([2, 3, 4].flatMap((depth) => txIds.map((txId) => ["transaction.confirmed", txId, depth])));
        expect(deeper.slice(-txIds.length).every((e) => (e.data as { final: boolean }).final)).to.equal(true);
      });
    }

    it("announces a burned user state as state.invalidated; the state's transactions name it", async () => {
      const { alice } = w.f.actors;
      const state = await w.f.mintState(alice);
      await caughtUp();
      const minted = (await eventsAfter("0")).find(
        (e) => e.type === "transaction.confirmed" && e.subjects.includes(`state:${state.datum.id}`),
      );
      expect(minted?.subjects).to.include(`address:${enterpriseAddressOfKeyHash(alice.paymentKeyHash, 0)}`);
      const mark = await latestId();
      const { txId } = await w.f.accept(w.f.burnStatesSpec([state], alice), alice);
      await caughtUp();
      const burned = (await eventsAfter(mark)).filter(about([txId]));
      expect(burned.map((e) => e.type)).to.deep.equal(["state.invalidated", "transaction.confirmed"]);
      expect(burned[0]!.data).to.deep.equal({ stateId: state.datum.id, transactionHash: txId });
      expect(burned[0]!.subjects).to.deep.equal([`state:${state.datum.id}`, `transaction:${txId}`]);
      expect(burned[1]!.subjects).to.include(`state:${state.datum.id}`);
      // the script transactions took alice's collateral output: the next builds need one again
      await w.ensureCollateral(alice);
      await caughtUp();
    });

    it("confirms a transaction of no protocol fact that the service submitted, up to the finality depth", async () => {
      const { alice } = w.f.actors;
      const carol = Wallet.fromMnemonic(generateMnemonic(), { networkId: 0 });
      await w.f.chain.submit(
        {
          utxos: w.f.chain.utxosAt(alice.address),
          changeAddress: alice.address,
          outputs: [{ address: carol.address, lovelace: 40_000_000n }],
        },
        [alice],
      );
      await caughtUp();
      const mark = await latestId();
      const split = await w.prepareCollateral(carol.address);
      expect(split.body.status.code).to.equal("SUCCESS");
      const txId = await w.signAndSubmit(split.body.unsignedTransaction!, [carol]);
      await w.confirm(txId);
      await caughtUp();
      await emptyBlocks(FINALITY - 1);
      const mine = (await eventsAfter(mark)).filter(about([txId]));
      expect(mine.map(shape)).to.deep.equal([
        ["transaction.submitted", txId, null],
        ...[1, 2, 3, 4].map((depth) => ["transaction.confirmed", txId, depth]),
      ]);
      expect(mine[1]!.subjects).to.deep.equal([`transaction:${txId}`]);
    });
  });

  const url = (query = "") => `${w.mesh.api}/events${query}`;
  const open = async (query: string, headers: Record<string, string> = {}) => {
    const s = await EventStreamClient.open(url(query), headers);
    streams.push(s);
    return s;
  };

  describe("GET /api/v1/events (Server-Sent Events)", function () {
    it("streams the events of its subjects live; a reconnect with Last-Event-ID gets exactly the ones it missed, then live ones", async () => {
      const { alice } = w.f.actors;
      const hashes = [hash(), hash()];
      const query = `?subject=hash:${hashes[0]}&subject=hash:${hashes[1]!.toUpperCase()}`;
      const live = await open(query);
      expect(live.response.statusCode).to.equal(200);
      expect(live.response.headers["content-type"]).to.equal("text/event-stream; charset=utf-8");
      const first = await w.issue({ type: "default", address: alice.address, certificates: [{ hash: hashes[0]!, metadata: {} }] }, [alice]);
      await caughtUp();
      const seen = await live.received(2, "the first certificate's events, live");
      expect(seen.map(shape)).to.deep.equal([
        ["certificate.anchored", first.txId, 0],
        ["transaction.confirmed", first.txId, 1],
      ]);
      expect(live.eventFields).to.deep.equal(seen.map((e) => e.type));
      const lastSeen = seen[seen.length - 1]!.id;
      live.end();

      // missed while away: the second certificate, and both transactions' next confirmations
      const second = await w.issue({ type: "default", address: alice.address, certificates: [{ hash: hashes[1]!, metadata: {} }] }, [
        alice,
      ]);
      await caughtUp();
      await emptyBlocks(1);
      const missed = (await eventsAfter(lastSeen)).filter((e) => e.subjects.some((s) => hashes.map((h) => `hash:${h}`).includes(s)));
      expect(missed.map(shape)).to.deep.include.members([
        ["certificate.anchored", second.txId, 0],
        ["transaction.confirmed", second.txId, 1],
        ["transaction.confirmed", first.txId, 3],
        ["transaction.confirmed", second.txId, 2],
      ]);

      const resumed = await open(query, { "Last-Event-ID": lastSeen });
      const replayed = await resumed.received(missed.length, "the missed events");
      expect(replayed.map((e) => e.id)).to.deep.equal(missed.map((e) => e.id));
      // then live again
      await emptyBlocks(1);
      const more = await resumed.received(missed.length + 2, "the next block's confirmations");
      expect(more.slice(missed.length).map(shape)).to.deep.equal([
        ["transaction.confirmed", first.txId, 4],
        ["transaction.confirmed", second.txId, 3],
      ]);
      // `after` resumes the same way, and a type filter keeps only its types
      const byQuery = await open(`${query}&after=${lastSeen}&type=certificate.anchored`);
      const anchored = await byQuery.received(1, "the second certificate by type");
      expect(anchored.map(shape)).to.deep.equal([["certificate.anchored", second.txId, 0]]);
      resumed.end();
      byQuery.end();
    });

    it("answers a bad filter or resume id with 400 JSON naming the problem, and HEAD without a stream", async () => {
      const cases: [string, Record<string, string>, RegExp][] = [
        ["?subject=nope", {}, /subject "nope" is not <kind>:<value>/],
        ["?subject=hash:xyz", {}, /hash subject is 2 to 128 hex digits/],
        ["?subject=transaction:abcd", {}, /transaction subject is 64 hex digits/],
        ["?type=certificate.issued", {}, /type "certificate.issued" is none of transaction.submitted/],
        ["?after=-3", {}, /event id "-3" is not a decimal event id/],
        ["?after=1&after=2", {}, /after is given more than once/],
        ["?since=4", {}, /unknown parameter "since"/],
        ["", { "Last-Event-ID": "abc" }, /event id "abc"/],
        [`?${Array.from({ length: 51 }, () => `subject=hash:${hash()}`).join("&")}`, {}, /at most 50 subjects/],
      ];
      for (const [query, headers, message] of cases) {
        const res = await http(url(query), { headers });
        expect(res.status, query).to.equal(400);
        expect(res.headers.get("content-type")).to.match(/^application\/json/);
        expect(errorBody(res)).to.include({ error: "INVALID_EVENT_FILTER" });
        expect(errorBody(res).message, query).to.match(message);
      }
      const head = await http(url("?subject=hash:abcd"), { method: "HEAD" });
      expect(head.status).to.equal(200);
      expect(head.headers.get("content-type")).to.equal("text/event-stream; charset=utf-8");
      expect((await http(url("?subject=nope"), { method: "HEAD" })).status).to.equal(400);
    });

    it("refuses a client's stream beyond EVENTS_MAX_STREAMS_PER_CLIENT, and any beyond EVENTS_MAX_STREAMS, with 429 JSON", async () => {
      const as = (client: string) => ({ "X-Forwarded-For": client });
      const first = await Promise.all([1, 2, 3].map(() => open("", as("203.0.113.7"))));
      expect(first.map((s) => s.response.statusCode)).to.deep.equal([200, 200, 200]);
      const fourth = await http(url(), { headers: as("203.0.113.7") });
      expect(fourth.status).to.equal(429);
      expect(errorBody(fourth)).to.include({ error: "TOO_MANY_STREAMS", scope: "client", limit: 3 });
      expect(fourth.headers.get("retry-after")).to.equal("30");
      // another client may, up to the gateway's limit
      const other = await Promise.all([1, 2].map(() => open("", as("198.51.100.9"))));
      expect(other.map((s) => s.response.statusCode)).to.deep.equal([200, 200]);
      const beyond = await http(url(), { headers: as("192.0.2.1") });
      expect(beyond.status).to.equal(429);
      expect(errorBody(beyond)).to.include({ error: "TOO_MANY_STREAMS", scope: "gateway", limit: 5 });
      // a closed stream frees its place
      first[0]!.end();
      await pollUntil(
        async () =>
          (await http(url("?after=0&type=state.invalidated"), { method: "HEAD", headers: as("203.0.113.7") })).status === 200
            ? true
            : undefined,
        "HEAD",
      );
      const again = await pollUntil(async () => {
        const s = await EventStreamClient.open(url(), as("203.0.113.7"));
        if (s.response.statusCode === 200) return s;
        s.end();
        return undefined;
      }, "a place freed");
      streams.push(again);
      [...first, ...other, again].forEach((s) => s.end());
    });
  });

  describe("the calendar's receipts", function () {
    it("announces receipt.checkpointed when the log takes a request, then receipt.anchored once the round's transaction is in a block", async () => {
      const mark = await latestId();
      const submitted = await postJson(`${w.mesh.api}/batch/submit`, { hashes: [hash(), hash(), hash()] });
      expect(submitted.status, submitted.text).to.equal(202);
      const requestId = (submitted.json as SubmitAnswer).receipts[0]!.receiptId.slice(0, 24);
      const stream = await open(`?subject=request:${requestId}&after=${mark}`);
      const [checkpointed] = await stream.received(1, "receipt.checkpointed");
      expect(checkpointed!.type).to.equal("receipt.checkpointed");
      expect(checkpointed!.block).to.equal(null);
      expect(checkpointed!.data).to.deep.include({ requestId, positions: { from: 0, to: 3 } });
      const { firstIndex, checkpointSize } = checkpointed!.data as { firstIndex: number; checkpointSize: number };
      expect(checkpointSize).to.be.at.least(firstIndex + 3);
      // a round sends the checkpoint's transaction; blocks until one takes it
      const anchored = await pollUntil(
        async () => {
          devnet().produceBlock();
          await caughtUp();
          return stream.events.length >= 2 ? stream.events[1] : undefined;
        },
        "receipt.anchored",
        60_000,
      );
      expect(anchored.type).to.equal("receipt.anchored");
      const data = anchored.data as { transactionHash: string; checkpointRoot: string; checkpointSize: number };
      expect(anchored.data).to.deep.include({ requestId, positions: { from: 0, to: 3 }, firstIndex });
      expect(data.checkpointSize).to.be.at.least(checkpointSize);
      const record = (await call<TransactionRecord>("indexer.transaction", { id: data.transactionHash }))!;
      expect(anchored.block).to.deep.equal({ slot: record.slot, id: record.blockId, height: record.height });
      // the anchoring certificate is the checkpoint's root, announced in the same block
      const rootEvents = (await eventsAfter(mark)).filter((e) => e.type === "certificate.anchored" && txOf(e) === data.transactionHash);
      expect(rootEvents.map((e) => (e.data as { hash: string }).hash)).to.deep.equal([data.checkpointRoot]);
      // the round's transaction is the service's own: announced as submitted, like the submitter's (handed over without
      // waiting, so it may be appended just before or after the block's events)
      const ofRound = (await eventsAfter(mark)).filter((e) => txOf(e) === data.transactionHash);
      expect(ofRound.map((e) => e.type)).to.include.members(["transaction.submitted", "transaction.confirmed"]);
      const submittedEvent = ofRound.find((e) => e.type === "transaction.submitted")!;
      expect(submittedEvent.block).to.equal(null);
      expect((submittedEvent.data as { inFlightUntil: number | null }).inFlightUntil).to.be.greaterThan(0);
      stream.end();
    });
  });

  describe("crash safety", function () {
    it("derives nothing twice: a producer that lost its cursor derives the whole fact log again and appends no event", async () => {
      const before = await latestId();
      expect(Number(before)).to.be.greaterThan(50);
      // as if it died before it ever saved its cursor: everything is derived again from the first fact
      await w.store.collection("events_producer").deleteMany({});
      await caughtUp();
      const again = await eventsAfter(before);
      expect(again).to.deep.equal([]);
    });
  });
});
