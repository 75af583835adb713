/** The start banner's two renderings: lines for a terminal, one record each for a pipe. */
import { expect } from "chai";
import { readyLines, readyRecord, summaryLines, summaryRecord, type StartSummary } from "../../../shared/first-start/start-summary";

const TX = "ab".repeat(32);
const KEY = "cd".repeat(28);
const SUMMARY: StartSummary = {
  mode: "embedded (single process)",
  services: ["gateway", "indexer"],
  notBuilt: [],
  api: "http://127.0.0.1:3000/api/v1",
  openapi: "http://127.0.0.1:3000/api/v1/openapi.json",
  probes: { live: "http://127.0.0.1:3001/live", ready: "http://127.0.0.1:3001/ready" },
  store: { kind: "sqlite-files", dataDir: "./data" },
  chain: { network: "devnet", devnet: true, ogmiosUrl: "ws://127.0.0.1:40000" },
  bootstrap: {
    outcome: "done",
    serviceWallet: { address: "addr_test1xyz", paymentKeyHash: KEY, keySource: "./data/service-wallet.json (existing)" },
    steps: [
      { step: "init", outcome: "done", transactionHash: TX, detail: "proxy initialised (pointer minted)", ms: 900 },
      { step: "deploy", outcome: "skipped", detail: "already on chain", ms: 3 },
    ],
    deployment: { proxyTxHash: TX, proxyOutputIndex: 0, serviceKeyHash: KEY },
  },
};

describe("start summary: the banner for a person, the same facts as one record for a pipe", () => {
  it("renders the terminal banner as before: mode, servers, store, chain, wallet, each bootstrap step, the deployment", () => {
    expect(summaryLines(SUMMARY)).to.deep.equal([
      "mode: embedded (single process); services: gateway, indexer",
      "API listening on http://127.0.0.1:3000/api/v1 (OpenAPI: http://127.0.0.1:3000/api/v1/openapi.json)",
      "probes on http://127.0.0.1:3001/live and http://127.0.0.1:3001/ready",
      "store: sqlite-files under ./data",
      "chain: devnet via embedded devnet ws://127.0.0.1:40000",
      `service wallet addr_test1xyz (key hash ${KEY}) from ./data/service-wallet.json (existing)`,
      `bootstrap init: proxy initialised (pointer minted) in tx ${TX} (900 ms)`,
      "bootstrap deploy: already on chain",
      `deployment: PROXY_TX_HASH=${TX} PROXY_OUTPUT_INDEX=0 SERVICE_KEY_HASH=${KEY}`,
    ]);
    expect(readyLines({ failing: [], api: SUMMARY.api!, pages: "http://127.0.0.1:3000/" })).to.deep.equal([
      "ready: http://127.0.0.1:3000/api/v1 answers requests",
      "open http://127.0.0.1:3000/ in a browser to verify and issue certificates",
    ]);
    expect(readyLines({ failing: ["indexer is following"] })).to.deep.equal([
      "not ready yet (indexer is following); /ready answers 503 until these pass",
    ]);
  });

  it("makes one record of the banner (its facts as fields) and one of the readiness, each with a message that says it", () => {
    const started = summaryRecord(SUMMARY);
    expect(started.msg).to.equal("started: embedded (single process); API on http://127.0.0.1:3000/api/v1");
    expect(JSON.parse(JSON.stringify(started.facts))).to.deep.equal(JSON.parse(JSON.stringify(SUMMARY)));
    const failed = summaryRecord({
      ...SUMMARY,
      bootstrap: { ...SUMMARY.bootstrap!, outcome: "failed", steps: [], error: "no funds" } as never,
    });
    expect(failed).to.include({
      level: "warn",
      msg: "started: embedded (single process); the devnet bootstrap FAILED (restart to retry): no funds",
    });
    expect(started.level).to.equal("info");
    expect(readyRecord({ failing: [], api: SUMMARY.api!, pages: "http://127.0.0.1:3000/" })).to.deep.equal({
      level: "info",
      facts: { ready: true, failing: [], api: SUMMARY.api, pages: "http://127.0.0.1:3000/" },
      msg: "ready: http://127.0.0.1:3000/api/v1 answers requests",
    });
    expect(readyRecord({ failing: ["x"] })).to.deep.include({ level: "warn", facts: { ready: false, failing: ["x"] } });
  });
});
