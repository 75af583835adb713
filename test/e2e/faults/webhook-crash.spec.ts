/**
 * Fault campaign, webhooks: `npm start` (scripts/start.ts as a child process, the embedded devnet and store) is
 * killed with SIGKILL while it delivers a webhook — the receiver on 127.0.0.1 holds the request unanswered, so the
 * attempt is in flight — then restarted on the same DATA_DIR, three times. Each time the delivery survives: once the
 * dead process's claim lapses (3 × WEBHOOKS_REQUEST_TIMEOUT_MS), the new process sends it again, with the same
 * webhook-id, signed (checked by the Standard Webhooks library at the real clock), and the receiver accepts it once.
 * Afterwards no endpoint received anything twice beyond the one attempt cut short by each kill.
 *
 * The events are the calendar's `receipt.checkpointed` of a request submitted through `POST /batch/submit`: the
 * endpoint follows `request:<id>`. Should the event be in the log before the endpoint (the log's sequencing round
 * came first), the test replays it from its id (read from `GET /events`), which the dispatcher would not deliver.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { request, type ServerResponse } from "node:http";
import { pollUntil, postJson } from "../../../fixtures/mesh/helpers";
import { startServiceProcess, type ServiceProcess } from "../../../fixtures/processes/service-process";
import { ReferenceWebhook } from "../../webhooks/reference-verifier";
import { Receiver } from "../../webhooks/support";

const READY = /"msg":"ready: (http:\/\/[^"\s]+\/api\/v1) answers requests"/;
const KILLS = 3;
const REQUEST_TIMEOUT_MS = 3_000;

/**
 * The id of the first event of `subject` in the log, read from the Server-Sent Events route (over node:http: the
 * test run's fetch reads a whole answer, and a stream has no end).
 */
function firstEventId(api: string, subject: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (req.destroy(), reject(new Error(`no event of ${subject} within 30 s`))), 30_000);
    const req = request(`${api}/events?after=0&subject=${subject}`, { headers: { Accept: "text/event-stream" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        const id = /^id: (\d+)$/m.exec(text);
        if (id) {
          clearTimeout(timer);
          resolve(id[1]!);
          req.destroy();
        }
      });
      res.on("end", () => reject(new Error(`the stream ended before an event of ${subject}`)));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("fault campaign: kill -9 of `npm start` while it delivers a webhook, restart on the same DATA_DIR", function () {
  this.timeout(600_000);
  let dataDir: string;
  let app: ServiceProcess | undefined;
  let receiver: Receiver;
  const env = () => ({
    DATA_DIR: dataDir,
    ENABLE_METRICS: "false",
    RATE_LIMIT_POST_PER_MINUTE: "0",
    LOG_INTEGRATE_MS: "1000",
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
    WEBHOOKS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    WEBHOOKS_RETRY_SCHEDULE: "1s,1s,1s,1s,1s,1s,1s,1s,1s",
  });

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "fault-webhooks-"));
    receiver = await Receiver.start();
  });
  after(async () => {
    await app?.stop();
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<string> {
    app = startServiceProcess(env());
    return (await app.waitFor(READY, 120_000))[1]!;
  }

  it("delivers every event whose delivery a kill cut short, once the process is back, under its webhook-id and signed", async () => {
    let api = await start();
    const endpoints: { path: string; secret: string; webhookId?: string }[] = [];
    for (let run = 0; run < KILLS; run++) {
      const path = `/hook-${run}`;
      // the first request to this path is held: the attempt is in flight when the process dies
      const held: ServerResponse[] = [];
      receiver.script = [(res) => void held.push(res)];
      const submitted = await postJson(`${api}/batch/submit`, { hashes: [randomBytes(32).toString("hex")] });
      expect(submitted.status, submitted.text).to.equal(202);
      const requestId = (submitted.json as { receipts: { receiptId: string }[] }).receipts[0]!.receiptId.slice(0, 24);
      const subject = `request:${requestId}`;
      const res = await postJson(`${api}/webhooks`, { url: receiver.url(path), subjects: [subject], types: ["receipt.checkpointed"] });
      expect(res.status, res.text).to.equal(201);
      const endpoint = res.json as { id: string; secret: string; managementToken: string; cursor?: string };
      endpoints.push({ path, secret: endpoint.secret });
      // the event may have come before the endpoint: then it is the endpoint's to replay
      const eventId = await firstEventId(api, subject);
      if (endpoint.cursor !== undefined && Number(eventId) <= Number(endpoint.cursor)) {
        const replay = await postJson(
          `${api}/webhooks/${endpoint.id}/replay`,
          { fromEventId: eventId },
          {
            Authorization: `Bearer ${endpoint.managementToken}`,
          },
        );
        expect(replay.json).to.deep.include({ enqueued: 1 });
      }
      await pollUntil(async () => (held.length > 0 ? true : undefined), `the delivery to ${path} in flight`, 30_000);
      app!.child.kill("SIGKILL");
      expect(await app!.exit).to.equal(null);
      api = await start();
      // the dead process's claim lapses, and the new one delivers it
      const accepted = await pollUntil(
        async () => receiver.accepted().find((m) => m.path === path),
        `the delivery to ${path} after the restart`,
        60_000,
      );
      const cut = receiver.received.find((m) => m.path === path)!;
      expect(accepted.headers["webhook-id"], "the same webhook-id as the attempt cut short").to.equal(cut.headers["webhook-id"]);
      expect(accepted.headers["webhook-id"]).to.equal(`evt_${eventId}`);
      const body = new ReferenceWebhook(endpoint.secret).verify(accepted.body, accepted.headers as Record<string, string>) as {
        type: string;
        eventId: string;
        subjects: string[];
      };
      expect(body).to.deep.include({ type: "receipt.checkpointed", eventId, subjects: [subject] });
      endpoints[run]!.webhookId = String(accepted.headers["webhook-id"]);
    }
    // a last event for the first endpoint's receiver path would show a duplicate; give the deliverer a while to
    // make one should it want to (it must not), then count: per endpoint the attempt cut short and the accepted one
    await new Promise((r) => setTimeout(r, 2 * REQUEST_TIMEOUT_MS));
    for (const e of endpoints) {
      const got = receiver.received.filter((m) => m.path === e.path);
      expect(
        got.map((m) => [m.headers["webhook-id"], m.status]),
        e.path,
      ).to.deep.equal([
        [e.webhookId, 0],
        [e.webhookId, 200],
      ]);
    }
  });
});
