import { expect } from "chai";
import { isWithinWindow, parseUserActionMessage, userActionMessage } from "../../../shared/domain/user-action-message";

const address = "addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz";

describe("user action message", () => {
  it("has the exact format of the decisions, with and without a state id", () => {
    expect(userActionMessage({ action: "USER_INFO", timestamp: 1700000000000, address })).to.equal(
      `[USER_INFO@1700000000000] Please sign this message with your private key to verify, that you are the owner of the address ${address}.`,
    );
    expect(userActionMessage({ action: "INVALIDATE_STATE", stateId: "ab12", timestamp: 5, address })).to.match(
      /^\[INVALIDATE_STATE:ab12@5\] /,
    );
  });

  it("parses what it builds and nothing else", () => {
    const m = userActionMessage({ action: "INVALIDATE_STATE", stateId: "ab12", timestamp: 7, address });
    expect(parseUserActionMessage(m)).to.deep.equal({ action: "INVALIDATE_STATE", stateId: "ab12", timestamp: 7, address });
    expect(parseUserActionMessage(`${m} `)).to.equal(undefined);
    expect(parseUserActionMessage("[USER_INFO@x] hello")).to.equal(undefined);
  });

  it("accepts timestamps within ±10 minutes only", () => {
    const now = 1_700_000_000_000;
    expect(isWithinWindow(now - 600_000, now)).to.equal(true);
    expect(isWithinWindow(now + 600_000, now)).to.equal(true);
    expect(isWithinWindow(now - 600_001, now)).to.equal(false);
  });
});
