/**
 * shared/witness/witness-state.ts: the compare-and-set that closes the spec's race. Two witness states on one store
 * (two witness processes on one database) advancing from the same record: exactly one wins, the other sees the
 * winner's record. Also a stalled upload answered 408 by the server's request timeout.
 */
import { expect } from "chai";
import { connect } from "node:net";
import { createStore, type Store } from "../../shared/store";
import { toBase64 } from "../../shared/tlog/encoding";
import { treeRoot } from "../../shared/tlog/rfc9162";
import { createWitnessState } from "../../shared/witness/witness-state";
import { memoryTree } from "../tlog/fixture-log";
import { startTestWitness } from "./fixture-witness";

const tree = memoryTree(600);
const fork = memoryTree(600, (i) => new TextEncoder().encode(i < 300 ? `entry ${i}` : `forked ${i}`));
const tree300 = { size: 300, rootHash: treeRoot(300, tree.read) };
const next = (size: number, t = tree) => ({ size, rootHash: treeRoot(size, t.read), note: `checkpoint ${size}\n` });

describe("witness state: compare-and-set per origin", () => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore({ inMemory: true });
  });
  afterEach(async () => {
    await store.close();
  });

  it("lets exactly one of two first records of an origin in", async () => {
    const [a, b] = [createWitnessState(store), createWitnessState(store)];
    const results = await Promise.all([a.advance("log", null, next(300)), b.advance("log", null, next(400))]);
    expect(results.filter((r) => r.won)).to.have.length(1);
    const lost = results.find((r) => !r.won);
    expect(lost && !lost.won && lost.current?.size).to.equal(results[0]!.won ? 300 : 400);
  });

  it("advances only from the record the decision was made on; the loser sees the winner's record", async () => {
    const [a, b] = [createWitnessState(store), createWitnessState(store)];
    expect(await a.advance("log", null, next(300))).to.deep.equal({ won: true });
    expect(await a.advance("log", tree300, next(500))).to.deep.equal({ won: true });
    const lost = await b.advance("log", tree300, next(500, fork));
    expect(lost.won).to.equal(false);
    expect(!lost.won && lost.current?.size).to.equal(500);
    expect(toBase64((await b.latest("log"))!.rootHash)).to.equal(toBase64(treeRoot(500, tree.read)));
    expect(await b.latest("other")).to.equal(null);
  });
});

describe("witness server: a stalled client", () => {
  it("answers 408 to a request whose body does not arrive within the request timeout", async () => {
    const witness = await startTestWitness({ requestTimeoutMs: 300 });
    try {
      const { port } = new URL(witness.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () =>
          socket.write("POST /add-checkpoint HTTP/1.1\r\nHost: w\r\nContent-Length: 100\r\n\r\nold 0\n"),
        );
        let data = "";
        socket.on("data", (c) => (data += c.toString()));
        socket.on("close", () => resolve(data));
        socket.on("error", reject);
      });
      expect(answer).to.match(/^HTTP\/1\.1 408/);
    } finally {
      await witness.stop();
    }
  });
});
