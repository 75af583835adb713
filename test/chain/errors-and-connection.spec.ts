import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import { ChainError, OGMIOS_ERROR_NAMES, createChainClient, isUnknownInputsRejection, toChainError } from "../../shared/chain";
import { startChainSync } from "../../shared/chain/chain-sync";
import { endpointOf } from "../../shared/chain/connection";
import { startHarness } from "./support/devnet-harness";

/** An HTTP+WS server that reports healthy and never answers a request. */
async function silentOgmios(): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const http: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ lastTipUpdate: new Date().toISOString(), networkSynchronization: 1 }));
  });
  const wss = new WebSocketServer({ server: http });
  wss.on("connection", (s) => s.on("message", (m) => received.push(String(m))));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  const { port } = http.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    received,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function rejection(p: Promise<unknown>): Promise<ChainError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(ChainError);
    return err as ChainError;
  }
  throw new Error("expected a rejection");
}

describe("chain client: error mapping, timeouts, unavailability", () => {
  it("maps Ogmios codes to stable types, keeping code, schema name and data", () => {
    const cases: Array<[number, string, boolean]> = [
      [3117, "UNKNOWN_OUTPUT_REFERENCES", false],
      [3118, "OUTSIDE_VALIDITY_INTERVAL", false],
      [3122, "FEE_TOO_SMALL", false],
      [3123, "VALUE_NOT_CONSERVED", false],
      [3101, "SIGNATURES_INVALID", false],
      [3010, "SCRIPT_EXECUTION_FAILED", false],
      [3136, "SCRIPT_EXECUTION_FAILED", false],
      [3113, "TX_REJECTED", false],
      [3005, "TX_REJECTED", false],
      [3002, "OVERLAPPING_ADDITIONAL_UTXO", false],
      [3003, "EVALUATION_UNAVAILABLE", false],
      [1000, "INTERSECTION_NOT_FOUND", false],
      [2000, "LEDGER_STATE_UNAVAILABLE", true],
      [4000, "MEMPOOL_NOT_ACQUIRED", false],
      [-32601, "CHAIN_PROTOCOL_ERROR", false],
      [-32000, "CHAIN_UNAVAILABLE", true],
    ];
    for (const [code, type, retryable] of cases) {
      const e = toChainError({ code, message: "m", data: { x: code } }, "op");
      expect({ code, type: e.type, retryable: e.retryable, reason: e.reason, data: e.data }).to.deep.equal({
        code,
        type,
        retryable,
        reason: OGMIOS_ERROR_NAMES[code],
        data: { x: code },
      });
    }
    // a raw JSON-RPC response, as the Ogmios client sometimes rejects with
    const raw = toChainError(
      { jsonrpc: "2.0", method: "submitTransaction", error: { code: 3117, message: "m", data: { unknownOutputReferences: [] } } },
      "submit",
    );
    expect([raw.type, raw.code]).to.deep.equal(["UNKNOWN_OUTPUT_REFERENCES", 3117]);
    expect(JSON.parse(JSON.stringify(raw))).to.include({
      type: "UNKNOWN_OUTPUT_REFERENCES",
      code: 3117,
      reason: "UnknownOutputReferences",
    });
  });

  it("classifies a ledger rejection's code as unknown inputs only for UnknownOutputReferences (3117)", () => {
    expect(isUnknownInputsRejection(3117)).to.equal(true);
    for (const other of [3118, 3123, 3010, -32000, "3117", undefined, null])
      expect(isUnknownInputsRejection(other), String(other)).to.equal(false);
  });

  it("times out a request with CHAIN_TIMEOUT and reconnects for the next one", async () => {
    const silent = await silentOgmios();
    const client = createChainClient({ url: silent.url, requestTimeoutMs: 300, reconnect: { maxAttempts: 1 } });
    try {
      const err = await rejection(client.protocolParameters());
      expect(err.type).to.equal("CHAIN_TIMEOUT");
      expect(err.retryable).to.equal(true);
      expect(err.data).to.deep.equal({ timeoutMs: 300 });
      const again = await rejection(client.ledgerTip());
      expect(again.type).to.equal("CHAIN_TIMEOUT");
      expect(silent.received.map((m) => JSON.parse(m).method)).to.deep.equal([
        "queryLedgerState/protocolParameters",
        "queryLedgerState/tip",
      ]);
    } finally {
      await client.close();
      await silent.close();
    }
  });

  it("requests in flight when the connection drops are refused at once with CHAIN_UNAVAILABLE, not left to time out", async () => {
    const silent = await silentOgmios();
    const client = createChainClient({ url: silent.url, requestTimeoutMs: 20_000, reconnect: { maxAttempts: 1 } });
    try {
      const inFlight = [client.submit("84a0a0f5f6"), client.evaluate("84a0a0f5f6"), client.utxosByAddresses(["addr_test1"])].map(rejection);
      while (silent.received.length < 3) await new Promise((r) => setTimeout(r, 5));
      const dropped = Date.now();
      await silent.close();
      const errors = await Promise.all(inFlight);
      expect(Date.now() - dropped, "refused when the socket closed, long before the 20 s timeout").to.be.below(5_000);
      expect(errors.map((e) => [e.type, e.code])).to.deep.equal([
        ["CHAIN_UNAVAILABLE", -32000],
        ["CHAIN_UNAVAILABLE", -32000],
        ["CHAIN_UNAVAILABLE", -32000],
      ]);
      expect(silent.received.map((m) => JSON.parse(m).method)).to.have.members([
        "submitTransaction",
        "evaluateTransaction",
        "queryLedgerState/utxo",
      ]);
    } finally {
      await client.close();
    }
  });

  it("a chain-sync whose first intersection fails rejects once and leaves no reconnect running behind", async () => {
    const silent = await silentOgmios();
    const conn = { endpoint: endpointOf(silent.url), timeoutMs: 200, initialDelayMs: 5, maxDelayMs: 20, maxAttempts: 1_000 };
    const ignore = { rollForward: () => undefined, rollBackward: () => undefined };
    try {
      const err = await rejection(startChainSync(conn, ["origin"], ignore));
      expect(err.type).to.equal("CHAIN_TIMEOUT");
      await new Promise((resolve) => setTimeout(resolve, 400)); // many backoff periods
      expect(silent.received.map((m) => JSON.parse(m).method)).to.deep.equal(["findIntersection"]);
    } finally {
      await silent.close();
    }
  });

  it("reports CHAIN_UNAVAILABLE (retryable) when nothing listens, after the configured attempts", async () => {
    const silent = await silentOgmios();
    const url = silent.url;
    await silent.close(); // the port is now closed
    const client = createChainClient({ url, requestTimeoutMs: 2_000, reconnect: { maxAttempts: 2, initialDelayMs: 5 } });
    try {
      const err = await rejection(client.protocolParameters());
      expect(err.type).to.equal("CHAIN_UNAVAILABLE");
      expect(err.retryable).to.equal(true);
    } finally {
      await client.close();
    }
  });

  it("derives the health (http/https) and WebSocket addresses from the url, path included", () => {
    expect(endpointOf("ws://127.0.0.1:1337")).to.deep.equal({ http: "http://127.0.0.1:1337", webSocket: "ws://127.0.0.1:1337" });
    expect(endpointOf("wss://ogmios.example.org/preprod")).to.deep.equal({
      http: "https://ogmios.example.org/preprod",
      webSocket: "wss://ogmios.example.org/preprod",
    });
  });

  it("rejects urls that are not ws:// or wss://", () => {
    expect(() => createChainClient({ url: "http://localhost:1337" }))
      .to.throw(ChainError)
      .with.property("type", "CHAIN_ERROR");
  });

  it("a request while the server is down fails with CHAIN_UNAVAILABLE; the client reconnects once it is back", async () => {
    const h = await startHarness({ reconnect: { maxAttempts: 1 } });
    try {
      expect(await h.client.blockHeight()).to.equal("origin");
      await h.stopServer();
      const err = await rejection(h.client.blockHeight());
      expect(err.type).to.equal("CHAIN_UNAVAILABLE");
      await h.startServer();
      expect(await h.client.blockHeight()).to.equal("origin");
    } finally {
      await h.close();
    }
  });

  it("close() stops chain-syncs and mempool connections it opened, and refuses further use", async () => {
    const h = await startHarness();
    const sub = await h.client.chainSync(["origin"], { rollForward: () => undefined, rollBackward: () => undefined });
    const m = await h.client.mempool();
    await h.client.close();
    expect(sub.state()).to.equal("stopped");
    await m.closed; // resolved: the socket is closed
    const err = await rejection(h.client.protocolParameters());
    expect(err.type).to.equal("CHAIN_UNAVAILABLE");
    await h.close();
  });
});
