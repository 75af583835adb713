import { expect } from "chai";
import { requestBatcher } from "../../../shared/chain/chain-sync";

/** What the batcher sees of ws's WebSocket: its underlying socket, whose cork/uncork frame a batch of writes. */
function recordingSocket() {
  const log: string[] = [];
  return { log, webSocket: { _socket: { cork: () => void log.push("cork"), uncork: () => void log.push("uncork") } } };
}

describe("chain-sync request batcher", () => {
  it("sends the requests of one event-loop turn together, after the turn, between one cork and one uncork", async () => {
    const { log, webSocket } = recordingSocket();
    const request = requestBatcher(webSocket);
    for (let n = 1; n <= 3; n++) request(() => void log.push(`send ${n}`));
    expect(log).to.deep.equal([]);
    await new Promise((r) => setImmediate(r));
    expect(log).to.deep.equal(["cork", "send 1", "send 2", "send 3", "uncork"]);

    request(() => void log.push("send 4"));
    await new Promise((r) => setImmediate(r));
    expect(log.slice(5)).to.deep.equal(["cork", "send 4", "uncork"]);
  });

  it("writes a full group at once, without waiting for the end of the turn", async () => {
    const { log, webSocket } = recordingSocket();
    const request = requestBatcher(webSocket, 3);
    for (let n = 1; n <= 4; n++) request(() => void log.push(`send ${n}`));
    expect(log).to.deep.equal(["cork", "send 1", "send 2", "send 3", "uncork"]);
    await new Promise((r) => setImmediate(r));
    expect(log.slice(5)).to.deep.equal(["cork", "send 4", "uncork"]);
  });

  it("keeps sending the rest when one send throws (a closed socket), and still uncorks", async () => {
    const { log, webSocket } = recordingSocket();
    const request = requestBatcher(webSocket);
    request(() => {
      throw new Error("socket closed");
    });
    request(() => void log.push("sent"));
    await new Promise((r) => setImmediate(r));
    expect(log).to.deep.equal(["cork", "sent", "uncork"]);
  });

  it("sends without corking when the WebSocket exposes no underlying socket", async () => {
    const sent: number[] = [];
    const request = requestBatcher({});
    request(() => void sent.push(1));
    request(() => void sent.push(2));
    await new Promise((r) => setImmediate(r));
    expect(sent).to.deep.equal([1, 2]);
  });
});
