/**
 * The tokenizable build's body forms and the CIP-68 metadata of a reference token: what the published client sends
 * is read as the reference form, the spec form as JSON requests, malformed fields name themselves, and the
 * metadata datum keeps the certificate's text fields within its bound.
 */
import { expect } from "chai";
import {
  checkMetadataFits,
  cip68MetadataOf,
  MAX_CIP68_DATUM_BYTES,
  parseTokenizableRequest,
  TokenizableError,
} from "../../../shared/extensions/tokenizable";
import { loadBlueprint } from "../../../shared/protocol";
import { deriveTokenizableMetadataScript } from "../../../shared/extensions/tokenizable/scripts";
import { nodeAssetName } from "../../../shared/extensions/list-kit/list-tokens";

const key = "ab".repeat(32);
const kh = "cd".repeat(28);
const tx = "ef".repeat(32);
const refusal = (body: Record<string, unknown>) => {
  try {
    parseTokenizableRequest(body);
  } catch (err) {
    expect(err).to.be.instanceOf(TokenizableError);
    return err as TokenizableError;
  }
  throw new Error("not refused");
};

describe("tokenizable requests and CIP-68 metadata", () => {
  const metadataScript = deriveTokenizableMetadataScript(loadBlueprint(), 0);

  it("reads the published client's CREATE and REDEEM bodies as the reference form", () => {
    const create = parseTokenizableRequest({
      type: "CREATE",
      senderAddress: "addr_test1x",
      certificate: { hash: key.toUpperCase(), metadata: '{"name":"Diploma"}' },
      ownerPubKeyHash: kh,
      assetName: nodeAssetName(key).toUpperCase(),
      initUtxoTxHash: tx,
      initUtxoOutputIndex: 1,
      config: { deployer: kh, allowedInserters: [], cip68ScriptAddress: metadataScript.hash },
    });
    expect(create).to.deep.include({ form: "reference", action: "Create", address: "addr_test1x", initRef: { txHash: tx, index: 1 } });
    if (create.action !== "Create") throw new Error("unreachable");
    expect(create.config).to.deep.equal({ deployer: kh, allowedInserters: [], cip68ScriptHash: metadataScript.hash });
    expect(create.terms).to.deep.include({ key, owner: { keyHash: kh }, assetName: nodeAssetName(key), metadata: '{"name":"Diploma"}' });

    const redeem = parseTokenizableRequest({
      type: "REDEEM",
      senderAddress: "addr_test1y",
      certificate: { hash: key },
      initUtxoTxHash: tx,
      initUtxoOutputIndex: 0,
    });
    expect(redeem).to.deep.equal({
      form: "reference",
      action: "Redeem",
      address: "addr_test1y",
      list: { initRef: { txHash: tx, index: 0 } },
      key,
    });
  });

  it("reads the spec form (Init, Insert, Redeem), the owner as a key hash or an address, cip68 as the script's address", () => {
    const init = parseTokenizableRequest({
      type: "Init",
      address: "addr_test1x",
      certificate: { hash: key },
      owner: "addr_test1owner",
      config: { cip68ScriptAddress: metadataScript.address },
    });
    expect(init).to.deep.include({ form: "spec", action: "Init", initRef: undefined, config: { cip68ScriptHash: metadataScript.hash } });
    if (init.action !== "Init") throw new Error("unreachable");
    expect(init.terms.owner).to.deep.equal({ address: "addr_test1owner" });
    expect(init.terms.assetName, "derived from the key when left out").to.equal(nodeAssetName(key));
    const redeem = parseTokenizableRequest({ type: "Redeem", address: "addr_test1x", policyId: kh, key });
    expect(redeem).to.deep.include({ form: "spec", action: "Redeem", list: { policyId: kh }, key });
  });

  it("names the malformed field", () => {
    const base = { type: "Insert", address: "a", policyId: kh, certificate: { hash: key }, owner: kh };
    expect(refusal({ ...base, type: "Mint" }).data).to.deep.equal({ field: "type" });
    expect(refusal({ ...base, certificate: { hash: "xyz" } }).data).to.deep.equal({ field: "certificate.hash" });
    expect(refusal({ ...base, assetName: "41" }).data, "a name not derived from the key").to.deep.equal({
      field: "assetName",
      assetName: nodeAssetName(key),
    });
    expect(refusal({ ...base, assetName: "4" }).data).to.deep.equal({ field: "assetName" });
    expect(refusal({ ...base, owner: undefined }).data).to.deep.equal({ field: "ownerPubKeyHash" });
    expect(refusal({ ...base, policyId: undefined }).data).to.deep.equal({ field: "policyId" });
    expect(refusal({ ...base, type: "Init", policyId: kh }).data).to.deep.equal({ field: "policyId" });
    expect(refusal({ ...base, type: "Init", policyId: undefined, config: { cip68ScriptAddress: "nope" } }).data).to.deep.equal({
      field: "config.cip68ScriptAddress",
    });
    expect(refusal({ ...base, key: "00" }).data).to.deep.equal({ field: "key" });
  });

  it("builds the token's metadata from the certificate's: defaults, other text fields, never the service's own fields", () => {
    expect(cip68MetadataOf(key, "")).to.deep.equal({
      name: `Certificate ${key.slice(0, 16)}`,
      image: "",
      description: "",
      certificateHash: key,
    });
    const m = cip68MetadataOf(
      key,
      JSON.stringify({
        name: "Diploma",
        image: "ipfs://x",
        description: "MSc",
        grade: "A",
        year: 2026,
        extension: "tokenizable-certificate",
        policyId: kh,
        nested: {},
      }),
    );
    expect(m).to.deep.equal({
      name: "Diploma",
      image: "ipfs://x",
      description: "MSc",
      certificateHash: key,
      other: { grade: "A", year: "2026" },
    });
    expect(() => checkMetadataFits(m)).to.not.throw();
    const big = cip68MetadataOf(key, JSON.stringify({ description: "x".repeat(MAX_CIP68_DATUM_BYTES) }));
    expect(() => checkMetadataFits(big))
      .to.throw(TokenizableError)
      .with.property("type", "METADATA_TOO_LARGE");
  });
});
