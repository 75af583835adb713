// The schema checker itself: it must reject wrong messages, or the zero-failure bar would be vacuous.
import { expect } from "chai";
import { checkOgmiosMessage, responseSchemaName } from "../support/ogmios-conformance";

describe("Ogmios schema conformance checker", () => {
  it("maps methods to the official response schemas", () => {
    expect(responseSchemaName("queryLedgerState/protocolParameters")).to.equal("QueryLedgerStateProtocolParametersResponse");
    expect(responseSchemaName("queryNetwork/tip")).to.equal("QueryNetworkTipResponse");
    expect(responseSchemaName("nextBlock")).to.equal("NextBlockResponse");
    expect(responseSchemaName("no/such")).to.equal(undefined);
  });

  it("accepts a well-formed reply and rejects wrong ones", () => {
    const ok = JSON.stringify({ jsonrpc: "2.0", method: "queryNetwork/tip", result: { slot: 1, id: "ab".repeat(32) }, id: null });
    expect(checkOgmiosMessage(ok, "queryNetwork/tip")).to.equal(undefined);
    const wrongShape = JSON.stringify({ jsonrpc: "2.0", method: "queryNetwork/tip", result: { slot: "1", id: "xyz" }, id: null });
    expect(checkOgmiosMessage(wrongShape, "queryNetwork/tip")?.schema).to.equal("QueryNetworkTipResponse");
    const sideways = JSON.stringify({
      jsonrpc: "2.0",
      method: "nextBlock",
      result: { direction: "sideways", tip: "origin", point: "origin" },
    });
    expect(checkOgmiosMessage(sideways, "nextBlock")).to.not.equal(undefined);
    const genericData = JSON.stringify({
      jsonrpc: "2.0",
      method: "submitTransaction",
      error: { code: 3117, message: "x", data: { message: "x" } },
    });
    expect(checkOgmiosMessage(genericData, "submitTransaction")).to.not.equal(undefined);
    const noMethod = JSON.stringify({ jsonrpc: "2.0", result: { transaction: { id: "ab".repeat(32) } } });
    expect(checkOgmiosMessage(noMethod, "submitTransaction")).to.not.equal(undefined);
    const rpcError = JSON.stringify({
      jsonrpc: "2.0",
      method: "frobnicate",
      error: { code: -32601, message: "Method not found" },
      id: null,
    });
    expect(checkOgmiosMessage(rpcError, "frobnicate")).to.equal(undefined);
  });
});
