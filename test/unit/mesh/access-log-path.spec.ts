/** The path an access record shows: never the query, never a secret-bearing segment. */
import { expect } from "chai";
import { loggedPath } from "../../../shared/gateway/access-log";

describe("access log: the logged path", () => {
  it("drops the query string and the fragment", () => {
    expect(loggedPath("GET", "/api/v1/verify/abcd?apiKey=secret&x=1")).to.equal("/api/v1/verify/abcd");
    expect(loggedPath("GET", "/verify/abcd#top")).to.equal("/verify/abcd");
  });

  it("masks a connected-goods item id and a webhook management token pasted into a path", () => {
    expect(loggedPath("GET", "/api/v1/extension/connected-goods/batch1/item-secret")).to.equal(
      "/api/v1/extension/connected-goods/batch1/<itemId>",
    );
    expect(loggedPath("DELETE", "/api/v1/webhooks/whm_AbC-123_x")).to.equal("/api/v1/webhooks/whm_***");
  });
});
