/**
 * The log's client (shared/transparency-log/witness-client.ts) against the real witness server, and against servers that
 * misbehave: a redirect, a dead port, one that never answers, one whose cosignature is another key's.
 */
import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { COSIGNATURE_TYPE, verifyCosignatureLine } from "../../shared/tlog/cosignature";
import { consistencyProof } from "../../shared/tlog/rfc9162";
import { requestCosignature } from "../../shared/transparency-log/witness-client";
import { keys, memoryTree, signedCheckpoint, witnessKeys } from "../tlog/fixture-log";
import { checkpointText, startTestWitness, type TestWitness } from "./fixture-witness";

const tree = memoryTree(600);
const checkpoint = (size: number) => signedCheckpoint(tree, size);

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

describe("witness client: requestCosignature", () => {
  let witness: TestWitness;
  before(async () => {
    witness = await startTestWitness();
  });
  after(async () => {
    await witness.stop();
  });

  it("returns the witness's cosignature lines, verified for the checkpoint, then follows the log's growth", async () => {
    const endpoint = { url: witness.url, verifierKey: witnessKeys.vkey };
    const first = await requestCosignature(endpoint, { oldSize: 0, consistencyProof: [], signedCheckpoint: checkpoint(300) });
    expect(first.ok && first.lines.length).to.equal(1);
    if (!first.ok) return;
    expect(verifyCosignatureLine(checkpointText(checkpoint(300)), first.lines[0]!, witnessKeys.verifier).ok).to.equal(true);
    const next = await requestCosignature(endpoint, {
      oldSize: 300,
      consistencyProof: consistencyProof(300, 500, tree.read),
      signedCheckpoint: checkpoint(500),
    });
    expect(next.ok).to.equal(true);
  });

  it("answers a 409 as conflictSize, so the caller can resend from that size", async () => {
    const result = await requestCosignature(
      { url: `${witness.url}/`, verifierKey: witnessKeys.verifier },
      { oldSize: 0, consistencyProof: [], signedCheckpoint: checkpoint(600) },
    );
    expect(result).to.deep.equal({ ok: false, conflictSize: 500 });
  });

  it("names the status and body of a refusal", async () => {
    const impostor = keys("cert-anchor.example/log");
    const forged = signedCheckpoint(tree, 600, impostor.signer);
    const result = await requestCosignature(
      { url: witness.url, verifierKey: witnessKeys.vkey },
      { oldSize: 500, consistencyProof: [], signedCheckpoint: forged },
    );
    expect(result).to.deep.include({ ok: false, status: 403 });
    expect(!result.ok && "error" in result && result.error).to.match(/answered 403: no signature of a known key$/);
  });

  it("keeps no line that does not verify with the witness's key", async () => {
    const other = keys(witnessKeys.verifier.name, COSIGNATURE_TYPE);
    const result = await requestCosignature(
      { url: witness.url, verifierKey: other.vkey },
      { oldSize: 500, consistencyProof: consistencyProof(500, 600, tree.read), signedCheckpoint: checkpoint(600) },
    );
    expect(result).to.deep.include({ ok: false, status: 200 });
  });

  it("refuses to follow a redirect", async () => {
    const { server, url } = await listen((_req, res) => {
      res.writeHead(307, { Location: `${witness.url}/add-checkpoint` }).end();
    });
    try {
      const result = await requestCosignature(
        { url, verifierKey: witnessKeys.vkey },
        { oldSize: 0, consistencyProof: [], signedCheckpoint: checkpoint(600) },
      );
      expect(result).to.deep.include({ ok: false, status: 307 });
      expect(!result.ok && "error" in result && result.error).to.match(/redirect/);
    } finally {
      await closeServer(server);
    }
  });

  it("answers an error for a dead address and for a witness that never answers, within the timeout", async () => {
    const dead = await listen(() => {});
    await closeServer(dead.server);
    const request = { oldSize: 0, consistencyProof: [], signedCheckpoint: checkpoint(600) };
    const refused = await requestCosignature({ url: dead.url, verifierKey: witnessKeys.vkey }, request, { timeoutMs: 2_000 });
    expect(refused.ok).to.equal(false);
    expect("error" in refused && refused.error).to.be.a("string");

    const silent = await listen(() => {});
    try {
      const started = Date.now();
      const hung = await requestCosignature({ url: silent.url, verifierKey: witnessKeys.vkey }, request, { timeoutMs: 300 });
      expect(Date.now() - started).to.be.below(2_000);
      expect(hung).to.deep.equal({ ok: false, error: `${silent.url}/add-checkpoint: no answer within the timeout` });
    } finally {
      await closeServer(silent.server);
    }
  });

  it("refuses an answer larger than its bound", async () => {
    const { server, url } = await listen((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" }).end("x".repeat(64 * 1024));
    });
    try {
      const result = await requestCosignature(
        { url, verifierKey: witnessKeys.vkey },
        { oldSize: 0, consistencyProof: [], signedCheckpoint: checkpoint(600) },
      );
      expect(result).to.deep.include({ ok: false, status: 200 });
      expect(!result.ok && "error" in result && result.error).to.match(/more than the bound/);
    } finally {
      await closeServer(server);
    }
  });
});
