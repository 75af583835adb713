/**
 * Fault campaign, the transparency log: `npm start` (scripts/start.ts as a child process) is killed with SIGKILL at
 * random moments while a client submits hashes (≈ 500/s) and a reader watches the signed checkpoint, then restarted on the same
 * DATA_DIR, four times. Afterwards: every hash whose submission was answered 202 is in the log exactly once; every
 * checkpoint ever served is the root of the final log's first entries (no size got two roots, no signed entry was
 * lost); every receipt seen checkpointed before a kill keeps its index.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { http, pollUntil, postJson } from "../../../fixtures/mesh/helpers";
import { startServiceProcess, type ServiceProcess } from "../../../fixtures/processes/service-process";
import { parseCheckpoint } from "../../../shared/tlog/checkpoint";
import { ed25519Verifier, openNote, parseVerifierKey } from "../../../shared/tlog/note";
import { treeRoot } from "../../../shared/tlog/rfc9162";
import { formatTilePath, tileHashReader, type Tile } from "../../../shared/tlog/tiles";

const READY = /"msg":"ready: (http:\/\/[^"\s]+\/api\/v1) answers requests"/;
const KILLS = 4;

describe("fault campaign: kill -9 of `npm start` while the transparency log grows, restart on the same DATA_DIR", function () {
  this.timeout(600_000);
  let dataDir: string;
  let app: ServiceProcess | undefined;
  let api = "";
  const env = () => ({ DATA_DIR: dataDir, ENABLE_METRICS: "false", RATE_LIMIT_POST_PER_MINUTE: "0", LOG_INTEGRATE_MS: "100" });

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), "fault-log-"));
  });
  after(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The root of the first `size` entries of the log now, computed from its tiles as a client does. */
  async function rootFromTiles(size: number): Promise<string> {
    const wanted = new Map<string, Tile>();
    treeRoot(
      size,
      tileHashReader(size, (t) => {
        wanted.set(formatTilePath(t), t);
        return new Uint8Array(t.width * 32);
      }),
    );
    const got = new Map<string, Uint8Array>();
    for (const path of wanted.keys()) {
      const res = await fetch(`${api}/log/${path}`);
      expect(res.status, path).to.equal(200);
      got.set(path, new Uint8Array(await res.arrayBuffer()));
    }
    return Buffer.from(
      treeRoot(
        size,
        tileHashReader(size, (t) => got.get(formatTilePath(t))!),
      ),
    ).toString("hex");
  }

  it("loses no accepted hash, never signs two roots for one size, and keeps every index it gave", async () => {
    const accepted: string[] = []; // receipt ids answered 202
    const served = new Map<number, string>(); // size → root of every checkpoint seen
    const indexSeen = new Map<string, number>(); // receipt → index seen before a kill
    let verifierKey = "";

    for (let run = 0; run <= KILLS; run++) {
      app = startServiceProcess(env());
      api = (await app.waitFor(READY, 120_000))[1]!;
      const info = (await http(`${api}/log`)).json as { verifierKey: string };
      if (verifierKey === "") verifierKey = info.verifierKey;
      expect(info.verifierKey, "the same log key after a restart").to.equal(verifierKey);
      if (run === KILLS) break;

      const key = parseVerifierKey(verifierKey);
      if (!key.ok) throw new Error(key.error);
      let running = true;
      const submitter = (async () => {
        while (running) {
          const res = await postJson(`${api}/batch/submit`, {
            hashes: Array.from({ length: 20 }, () => randomBytes(32).toString("hex")),
          }).catch(() => undefined);
          if (res?.status === 202) accepted.push(...(res.json as { receipts: { receiptId: string }[] }).receipts.map((r) => r.receiptId));
          // a steady stream (≈ 500 hashes/s), not a flood: every receipt is read back at the end
          await new Promise((r) => setTimeout(r, 40));
        }
      })();
      const watcher = (async () => {
        while (running) {
          const res = await fetch(`${api}/log/checkpoint`).catch(() => undefined);
          if (res?.status === 200) {
            const opened = openNote(await res.text(), [ed25519Verifier(key.value)]);
            expect(opened.ok, "a served checkpoint is signed by the log key").to.equal(true);
            const cp = parseCheckpoint(opened.ok ? opened.value.text : "");
            if (cp.ok) {
              const root = Buffer.from(cp.value.rootHash).toString("hex");
              const seen = served.get(cp.value.size);
              expect(seen ?? root, `two roots served for size ${cp.value.size}`).to.equal(root);
              served.set(cp.value.size, root);
            }
          }
          await new Promise((r) => setTimeout(r, 30));
        }
      })();
      // let it run a random while, note a few checkpointed receipts' indices, then kill it mid-stride
      await new Promise((r) => setTimeout(r, 800 + Math.floor(Math.random() * 1500)));
      for (const id of accepted.slice(-5)) {
        const log = (
          (await http(`${api}/batch/receipt/${id}`).catch(() => undefined))?.json as { log?: { status: string; index?: number } }
        )?.log;
        if (log?.index !== undefined) indexSeen.set(id, log.index);
      }
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 300)));
      app.child.kill("SIGKILL");
      expect(await app.exit).to.equal(null);
      running = false;
      await Promise.all([submitter, watcher]);
    }

    // every accepted hash ends up in the log, each at its own index
    const indices = await pollUntil(
      async () => {
        // a few hundred requests at a time, not thousands at once
        const logs: { status: string; index?: number }[] = [];
        for (let i = 0; i < accepted.length; i += 200) {
          const batch = accepted.slice(i, i + 200);
          logs.push(
            ...(await Promise.all(
              batch.map(async (id) => ((await http(`${api}/batch/receipt/${id}`)).json as { log: { status: string; index?: number } }).log),
            )),
          );
        }
        // in a signed checkpoint: checkpointed, or anchored already (npm start's calendar rounds run meanwhile)
        return logs.every((l) => l.index !== undefined) ? logs.map((l) => l.index!) : undefined;
      },
      `${accepted.length} accepted hashes checkpointed after the last restart`,
      60_000,
    );
    expect(new Set(indices).size, "no index given twice").to.equal(accepted.length);
    const size = ((await http(`${api}/log`)).json as { size: number }).size;
    expect(size, "the log holds the accepted hashes and nothing else").to.equal(accepted.length);
    for (const [id, index] of indexSeen) expect(indices[accepted.indexOf(id)], `receipt ${id}`).to.equal(index);
    // every checkpoint served before, during and after the kills is the root of the final log's first entries
    expect(served.size).to.be.greaterThan(KILLS);
    for (const [s, root] of served) if (s > 0) expect(await rootFromTiles(s), `size ${s}`).to.equal(root);
    process.stdout.write(`      ${accepted.length} hashes over ${KILLS} kills; ${served.size} distinct checkpoints seen, all consistent\n`);
  });
});
