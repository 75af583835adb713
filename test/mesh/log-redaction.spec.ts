/** The gateway's error log never carries a connected-goods read's item id (it may be the claiming password itself). */
import { expect } from "chai";
import { redactPath } from "../../shared/gateway/error-writer";

describe("mesh: error-log path redaction", () => {
  it("replaces the item id of a social-hub read, and leaves every other path alone", () => {
    const batch = "ab".repeat(32);
    expect(redactPath("GET", `/api/v1/extension/connected-goods/${batch}/my%20secret%20password`)).to.equal(
      `/api/v1/extension/connected-goods/${batch}/<itemId>`,
    );
    expect(redactPath("POST", "/api/v1/extension/connected-goods/claim/item")).to.equal("/api/v1/extension/connected-goods/claim/item");
    expect(redactPath("GET", `/api/v1/verify/${batch}`)).to.equal(`/api/v1/verify/${batch}`);
  });
});
