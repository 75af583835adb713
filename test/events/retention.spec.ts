/**
 * The event log's retention (EVENTS_RETENTION_DAYS, docs/events.md#retention) through the gateway and the events
 * service in one broker, with a clock the test moves: `events.prune` (what the events service's timer runs, under the
 * producer's lease) deletes the events stored before the window as a prefix of ids and never the newest; resuming
 * from an id retention has passed is answered 410 `EVENTS_EXPIRED` naming the oldest id kept (SSE `after` and
 * `Last-Event-ID`, a webhook replay), while `after=0` reads from the oldest kept.
 */
import { expect } from "chai";
import { request } from "node:http";
import { errorBody, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";
import type { PublicEvent } from "../../shared/events/event-types";
import { transactionSubmitted } from "../../shared/events/service-events";
import { createStore, type Store } from "../../shared/store";
import { generateMnemonic } from "../../shared/wallet";

const DAY_MS = 86_400_000;

/** The status and, for a refusal, the JSON body of `GET /events` (the stream, if one opens, is closed at once). */
function openStream(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: "text/event-stream", ...headers } }, (res) => {
      if (res.statusCode === 200) {
        req.destroy();
        return resolve({ status: 200, body: {} });
      }
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("events: retention of the event log (EVENTS_RETENTION_DAYS)", function () {
  this.timeout(60_000);
  let store: Store;
  let mesh: RunningMesh;
  let skewMs = 0;
  let n = 0;
  const call = <T>(action: string, params: Record<string, unknown> = {}) => mesh.broker.call<T, Record<string, unknown>>(action, params);
  /** Appends `count` events (each a submission of its own transaction), stored at the test's clock; their ids. */
  const append = async (count: number): Promise<string[]> => {
    const events = Array.from({ length: count }, () =>
      transactionSubmitted((++n).toString(16).padStart(64, "0"), null, Date.now() + skewMs),
    );
    return (await call<{ ids: string[] }>("events.append", { events })).ids;
  };
  const ids = async (after: string) =>
    (await call<{ events: PublicEvent[] }>("events.after", { after, limit: 100 })).events.map((e) => e.id);

  before(async () => {
    store = await createStore({ inMemory: true });
    mesh = await startMesh({
      services: ["gateway", "events"],
      store,
      chain: { ogmiosUrl: "ws://127.0.0.1:9", network: "devnet", devnet: null },
      env: { EVENTS_RETENTION_DAYS: "2", USER_ACTION_SIGNING_MNEMONIC: generateMnemonic(), RATE_LIMIT_READ_PER_MINUTE: "0" },
      now: () => Date.now() + skewMs,
    });
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
  });

  it("deletes the events stored before the window, oldest first; a resume id before the oldest kept is answered 410 EVENTS_EXPIRED", async () => {
    expect(await append(3)).to.deep.equal(["1", "2", "3"]);
    skewMs += DAY_MS;
    expect(await append(2)).to.deep.equal(["4", "5"]);
    expect(await call("events.prune"), "nothing is older than 2 days yet").to.equal(0);
    skewMs += 1.5 * DAY_MS;
    expect(await call("events.prune"), "the first three are 2.5 days old").to.equal(3);
    expect(await ids("0"), "0 reads from the oldest kept").to.deep.equal(["4", "5"]);
    expect(await ids("3"), "after the last deleted: nothing missed").to.deep.equal(["4", "5"]);

    // SSE: a resume id whose next events are gone, by `after` or by the header a reconnecting EventSource sends
    for (const [query, headers] of [
      ["?after=2", {}],
      ["", { "Last-Event-ID": "1" }],
      ["?lastEventId=2", {}],
    ] as const) {
      const res = await openStream(`${mesh.api}/events${query}`, headers);
      expect(res.status, `${query} ${JSON.stringify(headers)}`).to.equal(410);
      expect(res.body["error"]).to.equal("EVENTS_EXPIRED");
      expect(String(res.body["message"]))
        .to.match(/Events after [12] are no longer kept/)
        .and.match(/its oldest is 4/);
    }
    for (const query of ["?after=3", "?after=0", "?after=5", ""])
      expect((await openStream(`${mesh.api}/events${query}`)).status, query).to.equal(200);

    // a webhook replay from an event that is gone names it and the oldest kept; from the oldest kept on, it replays
    const made = await postJson(`${mesh.api}/webhooks`, { url: "https://1.1.1.1/hook", subjects: [`transaction:${"0".repeat(63)}1`] });
    expect(made.status, made.text).to.equal(201);
    const { id, managementToken } = made.json as { id: string; managementToken: string };
    const replay = (fromEventId: string): Promise<HttpResult> =>
      postJson(`${mesh.api}/webhooks/${id}/replay`, { fromEventId }, { Authorization: `Bearer ${managementToken}` });
    const refused = await replay("3");
    expect(refused.status, refused.text).to.equal(410);
    expect(errorBody(refused).error).to.equal("EVENTS_EXPIRED");
    expect(errorBody(refused).message)
      .to.match(/Event 3 is no longer kept/)
      .and.match(/Replay from 4 or later/);
    for (const from of ["4", "0"]) expect((await replay(from)).status, from).to.equal(200);
  });

  it("never deletes the newest event, so ids go on from it", async () => {
    skewMs += 10 * DAY_MS;
    expect(await call("events.prune")).to.equal(1);
    expect(await ids("0")).to.deep.equal(["5"]);
    expect(await append(1)).to.deep.equal(["6"]);
  });
});
