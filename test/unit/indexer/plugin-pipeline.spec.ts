import { expect } from "chai";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPluginsFromDir } from "../../../shared/indexer/plugin-loader";
import { pluginDetail, pluginList, pluginOverview, schedulerList, schedulerStatus } from "../../../shared/indexer/plugin-monitoring";
import { PluginPipeline } from "../../../shared/indexer/plugin-pipeline";
import type { BlockContext, ProtocolEvent } from "../../../shared/indexer/plugin-types";

type Tx = { id: string; relevant: boolean };
const block = (txs: Tx[]): BlockContext<Tx> => ({ slot: 10, height: 1, id: "b".repeat(64), time: 1_700_000_000_000, transactions: txs });
const event = (type: string): ProtocolEvent => ({ type, slot: 10, transactionId: "t".repeat(64), payload: {} });

describe("indexer plugin pipeline", () => {
  it("keeps only the transactions every filter keeps and counts what each filter examined", () => {
    const p = new PluginPipeline<Tx>({ clock: () => 1000 });
    p.register({ kind: "filter", name: "relevant", keep: (tx) => tx.relevant });
    p.register({ kind: "filter", name: "not-x", keep: (tx) => tx.id !== "x" });
    const kept = p.filter(
      block([
        { id: "a", relevant: true },
        { id: "b", relevant: false },
        { id: "x", relevant: true },
      ]),
    );
    expect(kept.map((t) => t.id)).to.deep.equal(["a"]);
    const list = pluginList(p.snapshot(), "filters");
    expect(list.plugins.map((x) => [x.name, x.itemsProcessed, x.executionCount])).to.deep.equal([
      ["relevant", 3, 1],
      ["not-x", 2, 1],
    ]);
    expect(list.plugins[0]!.lastExecutionTime).to.equal(new Date(1000).toISOString());
  });

  it("keeps a transaction when a filter throws, and records the error", () => {
    const errors: string[] = [];
    const p = new PluginPipeline<Tx>({ onPluginError: (name) => errors.push(name) });
    p.register({
      kind: "filter",
      name: "broken",
      keep: () => {
        throw new Error("boom");
      },
    });
    expect(p.filter(block([{ id: "a", relevant: true }]))).to.have.length(1);
    expect(pluginDetail(p.snapshot(), "filters", "broken")!.executionMetrics.failedExecutions).to.equal(1);
    expect(errors).to.deep.equal(["broken"]);
  });

  it("fails the block when a critical plugin throws, but only records a non-critical plugin's error", async () => {
    const p = new PluginPipeline<Tx>();
    p.register({
      kind: "pre-action",
      name: "operator",
      run: () => {
        throw new Error("operator bug");
      },
    });
    await p.runPreActions(block([])); // does not throw
    p.register(
      {
        kind: "post-action",
        name: "projection",
        run: () => {
          throw new Error("store down");
        },
      },
      { critical: true },
    );
    let thrown: unknown;
    try {
      await p.runPostActions(block([]), []);
    } catch (err) {
      thrown = err;
    }
    expect((thrown as Error | undefined)?.message).to.equal("store down");
    const overview = pluginOverview(p.snapshot());
    expect(overview.preActions).to.deep.equal({ count: 1, totalExecutions: 1, totalErrors: 1 });
    expect(overview.postActions).to.deep.equal({ count: 1, totalExecutions: 1, totalErrors: 1 });
  });

  it("flushes, discards and rolls back staging pre-actions in order; a critical one's failure is thrown, another's only recorded", async () => {
    const calls: string[] = [];
    const staging = (name: string, failing: boolean) => ({
      kind: "pre-action" as const,
      name,
      run: () => void calls.push(`${name}:stage`),
      flush: () => {
        calls.push(`${name}:flush`);
        if (failing) throw new Error(`${name} write failed`);
      },
      discard: () => void calls.push(`${name}:discard`),
      rollback: (slot: number) => {
        calls.push(`${name}:rollback ${slot}`);
        if (failing) throw new Error(`${name} delete failed`);
      },
    });
    const errors: string[] = [];
    const p = new PluginPipeline<Tx>({ onPluginError: (name) => errors.push(name) });
    p.register(staging("operator", true));
    p.register({ kind: "pre-action", name: "plain", run: () => 0 });
    p.register(staging("lookups", false), { critical: true });
    await p.runPreActions(block([]));
    await p.flushStaged(); // the operator's failure does not stop the lookups' write
    p.discardStaged();
    await p.rollbackPreActions(7);
    expect(calls).to.deep.equal([
      "operator:stage",
      "lookups:stage",
      "operator:flush",
      "lookups:flush",
      "operator:discard",
      "lookups:discard",
      "operator:rollback 7",
      "lookups:rollback 7",
    ]);
    expect(errors).to.deep.equal(["operator", "operator"]);
    const operator = pluginDetail(p.snapshot(), "pre-actions", "operator")!;
    expect(operator.executionMetrics.failedExecutions).to.equal(2);

    const critical = new PluginPipeline<Tx>();
    critical.register(staging("lists", true), { critical: true });
    let flushError: unknown;
    await critical.flushStaged().catch((err: unknown) => (flushError = err));
    expect((flushError as Error | undefined)?.message).to.equal("lists write failed");
    let rollbackError: unknown;
    await critical.rollbackPreActions(-1).catch((err: unknown) => (rollbackError = err));
    expect((rollbackError as Error | undefined)?.message).to.equal("lists delete failed");
  });

  it("dispatches events to the handlers that subscribe to them and counts items", async () => {
    const p = new PluginPipeline<Tx>();
    const seen: string[] = [];
    p.register({ kind: "event-handler", name: "certs", events: ["certificate.issued"], handle: (e) => void seen.push(`certs:${e.type}`) });
    p.register({ kind: "event-handler", name: "all", events: ["*"], handle: (e) => void seen.push(`all:${e.type}`) });
    await p.dispatch([event("certificate.issued"), event("state.minted")]);
    expect(seen).to.deep.equal(["certs:certificate.issued", "all:certificate.issued", "all:state.minted"]);
    const detail = pluginDetail(p.snapshot(), "event-handlers", "all")!;
    expect(detail.itemMetrics.totalItemsProcessed).to.equal(2);
    expect(detail.executionMetrics.successRate).to.equal(1);
    expect(pluginDetail(p.snapshot(), "filters", "all")).to.equal(undefined);
  });

  it("reports schedulers with their status and statistics", async () => {
    const p = new PluginPipeline<Tx>({ clock: () => 5 });
    let runs = 0;
    p.register({ kind: "scheduler", name: "tick", intervalMs: 60_000, run: () => void runs++ });
    p.register({
      kind: "scheduler",
      name: "bad",
      intervalMs: 60_000,
      run: () => {
        throw new Error("nope");
      },
    });
    await p.runScheduler("tick");
    await p.runScheduler("bad");
    expect(runs).to.equal(1);
    const list = schedulerList(p.snapshot());
    expect(list).to.deep.include({ totalSchedulers: 2, runningSchedulers: 1, failedSchedulers: 1 });
    expect(schedulerStatus(p.snapshot(), "bad")!.statistics.lastError).to.equal("nope");
    expect(schedulerStatus(p.snapshot(), "missing")).to.equal(undefined);
    p.startSchedulers();
    expect(schedulerStatus(p.snapshot(), "tick")!.status).to.equal("SCHEDULED");
    p.stopSchedulers();
    expect(schedulerStatus(p.snapshot(), "tick")!.status).to.equal("CANCELLED");
  });

  it("rejects two plugins of the same kind with the same name", () => {
    const p = new PluginPipeline<Tx>();
    p.register({ kind: "filter", name: "f", keep: () => true });
    expect(() => p.register({ kind: "filter", name: "f", keep: () => true })).to.throw(/duplicate filter plugin "f"/);
  });
});

describe("indexer plugin loader", () => {
  it("loads plain JS plugins from a folder, one or several per file", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugins-"));
    writeFileSync(join(dir, "a.js"), 'module.exports = { kind: "filter", name: "only-big", keep: (tx) => true };');
    writeFileSync(
      join(dir, "b.cjs"),
      'module.exports = [{ kind: "scheduler", name: "hourly", intervalMs: 3600000, run() {} }, { kind: "event-handler", name: "log", events: ["*"], handle() {} }];',
    );
    writeFileSync(join(dir, "notes.txt"), "ignored");
    const plugins = loadPluginsFromDir(dir);
    expect(plugins.map((p) => [p.kind, p.name, p.language])).to.deep.equal([
      ["filter", "only-big", "javascript"],
      ["scheduler", "hourly", "javascript"],
      ["event-handler", "log", "javascript"],
    ]);
  });

  it("names the file and the problem when a plugin is malformed", () => {
    const dir = mkdtempSync(join(tmpdir(), "plugins-"));
    writeFileSync(join(dir, "bad.js"), 'module.exports = { kind: "filter", name: "x" };');
    expect(() => loadPluginsFromDir(dir)).to.throw(/bad\.js: filter plugin "x" needs a function "keep"/);
    const other = mkdtempSync(join(tmpdir(), "plugins-"));
    writeFileSync(join(other, "stage.js"), 'module.exports = { kind: "pre-action", name: "s", run() {}, flush: "soon" };');
    expect(() => loadPluginsFromDir(other)).to.throw(/stage\.js: pre-action "s" has a "flush" that is not a function/);
  });
});
