/**
 * The social-hub profile off chain: plaintext rules, AES-256-GCM sealing bound to the item and field, the hub key's
 * derivation (item id, deployment salt, batch id) and its cache.
 */
import { createHash } from "node:crypto";
import { expect } from "chai";
import {
  HubKeys,
  itemIdFromInput,
  itemIdOf,
  kdfActivity,
  parseProfile,
  type ConnectedGoodsError,
} from "../../../shared/extensions/connected-goods";

const BATCH = "11".repeat(32);
const OTHER_BATCH = "22".repeat(32);
const ITEM = Buffer.from("shoe-0001").toString("hex");
const refusal = (fn: () => unknown): ConnectedGoodsError => {
  try {
    fn();
  } catch (err) {
    return err as ConnectedGoodsError;
  }
  throw new Error("expected a refusal");
};

describe("connected goods: social-hub profile", function () {
  this.timeout(20_000);

  it("accepts snake_case fields, leaves empty ones unset and ignores unknown keys (owner is the service's)", () => {
    expect(
      parseProfile({ name: "Ada", ada_handle: "$ada", website: "ipfs://bafy", picture: "", x: null, owner: "me" }, { requireOne: true }),
    ).to.deep.equal({ name: "Ada", adaHandle: "$ada", website: "ipfs://bafy" });
  });

  for (const [what, profile, field] of [
    ["a website without http://, https:// or ipfs://", { website: "javascript:alert(1)" }, "website"],
    ["a field of 160 characters", { name: "é".repeat(160) }, "name"],
    ["a field that is not a string", { github: 42 }, "github"],
    ["control characters", { subtitle: "a\u0000b" }, "subtitle"],
  ] as const) {
    it(`refuses ${what}, naming the field`, () => {
      const err = refusal(() => parseProfile(profile, { requireOne: true }));
      expect(err.type).to.equal("INVALID_SOCIAL_HUB");
      expect(err.data).to.include({ field });
    });
  }

  it("accepts 159 characters of 4 UTF-8 bytes each, and refuses an empty profile when one field is required", () => {
    expect(parseProfile({ name: "😀".repeat(159) }, { requireOne: true }).name).to.have.length(318);
    expect(refusal(() => parseProfile({}, { requireOne: true })).type).to.equal("INVALID_SOCIAL_HUB");
    expect(refusal(() => parseProfile("name", { requireOne: false })).type).to.equal("INVALID_SOCIAL_HUB");
  });

  it("reads an item id as 64 hex, else as the password (SHA-256 of its NFKC form)", () => {
    const id = createHash("sha256").update("pässword 1", "utf8").digest("hex");
    expect(itemIdOf("pässword 1")).to.equal(id);
    expect(itemIdOf("pa\u0308ssword 1"), "NFKC").to.equal(id);
    expect(itemIdFromInput(id.toUpperCase())).to.equal(id);
    expect(itemIdFromInput("pässword 1")).to.equal(id);
  });

  it("seals fields so that only the same item id, deployment and batch open them, for the same item and field", async () => {
    const keys = new HubKeys("deployment-a");
    const key = await keys.get(itemIdOf("password one"), BATCH);
    const sealed = key.sealProfile(ITEM, { name: "Ada", website: "https://a.example" });
    expect(Buffer.from(sealed.name!, "hex").length).to.equal(3 + 28);
    expect(sealed.name).to.not.include(Buffer.from("Ada").toString("hex"));
    expect(key.openProfile(ITEM, sealed)).to.deep.equal({ name: "Ada", website: "https://a.example" });

    expect((await keys.get(itemIdOf("password two"), BATCH)).openProfile(ITEM, sealed), "other item id").to.equal(undefined);
    expect((await keys.get(itemIdOf("password one"), OTHER_BATCH)).openProfile(ITEM, sealed), "other batch").to.equal(undefined);
    const otherDeployment = await new HubKeys("deployment-b").get(itemIdOf("password one"), BATCH);
    expect(otherDeployment.openProfile(ITEM, sealed), "other deployment").to.equal(undefined);
    expect(key.openProfile(Buffer.from("shoe-0002").toString("hex"), sealed), "moved to another item").to.equal(undefined);
    expect(key.open(ITEM, "subtitle", sealed.name!), "moved to another field").to.equal(undefined);
    expect(String(key) + JSON.stringify({ key })).to.not.match(/[0-9a-f]{32}/);
  });

  it("derives a key once per item id and batch (the cache answers repeated reads)", async () => {
    const keys = new HubKeys("deployment-a", 2);
    const before = kdfActivity().runs;
    const a = keys.get(itemIdOf("password one"), BATCH);
    const b = keys.get(itemIdOf("password one"), BATCH);
    await Promise.all([a, b, keys.get(itemIdOf("password two"), BATCH), keys.get(itemIdOf("password three"), BATCH)]);
    expect(kdfActivity().runs - before, "the second get of one item shares the first's run").to.equal(3);
    await keys.get(itemIdOf("password three"), BATCH);
    expect(kdfActivity().runs - before, "cached").to.equal(3);
    await keys.get(itemIdOf("password one"), BATCH);
    expect(kdfActivity().runs - before, "evicted beyond capacity").to.equal(4);
  });
});
