/**
 * The two body forms of `POST /extension/tokenizable-certificate/build` (docs/api.md#tokenizable-certificates; the
 * list kit reads what every list extension shares, list-request.ts), with the tokenizable fields:
 * - reference (client) form: `type: CREATE | REDEEM`, `senderAddress`, `certificate { hash, metadata? }`,
 *   `ownerPubKeyHash` (or `ownerAddress`), `assetName?`, `initUtxoTxHash`/`initUtxoOutputIndex` (the list),
 *   `bootstrapTokenName?`, `config? { deployer, allowedInserters, cip68ScriptAddress }`;
 * - spec form: `type: Init | Insert | Redeem`, `address`, `policyId?` (or the init output reference),
 *   `certificate { hash, metadata?, algorithm? }`, `owner` (key hash or address), `assetName?`, `config?`, `key`.
 * `assetName` is derived from the key (blake2b-224 of it, 28 bytes, so the CIP-68 label fits); when given it must
 * be that name.
 * Every problem is a TokenizableError INVALID_FIELD naming the field.
 */
import { paymentCredentialOf } from "../../csl/address";
import { KeyHash, ScriptHash, type DataHash } from "../../domain/hex";
import { parseListRequest, type AnchoredTerms, type ListIssueRequest } from "../list-kit/list-request";
import type { ListRef } from "../list-kit/list-source";
import { pick, type BaseListConfigRequest, type Body, type BodyForm } from "../list-kit/request-fields";
import { TOKENIZABLE } from "./extension";

interface ListConfigRequest extends BaseListConfigRequest {
  /** the CIP-68 metadata script's hash; undefined = plain tokens */
  readonly cip68ScriptHash?: ScriptHash;
}

export interface IssueTerms extends AnchoredTerms {
  /** key hash, or the bech32 address to resolve against the network */
  readonly owner: { readonly keyHash: KeyHash } | { readonly address: string };
}

export type RedeemRequest = {
  readonly form: BodyForm;
  readonly action: "Redeem";
  readonly address: string;
  readonly list: ListRef;
  readonly key: DataHash;
};

type TokenizableRequest = ListIssueRequest<IssueTerms, ListConfigRequest> | RedeemRequest;

const bad: (field: string, message: string) => never = TOKENIZABLE.fields.bad;
const { keyHashField, requiredDataHash, addressField, initRefOf, bootstrapNameOf, listRefOf, assetNameOf } = TOKENIZABLE.fields;

/** `cip68ScriptAddress`: the metadata script's hash (56 hex, as the published client sends it) or its address. */
function scriptHashField(v: unknown, field: string): ScriptHash | undefined {
  if (v === undefined || v === "") return undefined;
  const hash = ScriptHash.parse(v);
  if (hash !== undefined) return hash;
  if (typeof v === "string" && v.length <= 200) {
    try {
      const cred = paymentCredentialOf(v.trim());
      if (cred?.kind === "script") return cred.hash;
    } catch {
      // not an address: refused below
    }
  }
  return bad(
    field,
    "must be the CIP-68 metadata script's hash (56 hex digits) or its script address (GET /extension/tokenizable-certificate/metadata-script)",
  );
}

function configOf(v: unknown): ListConfigRequest | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) bad("config", "must be an object { deployer?, allowedInserters?, cip68ScriptAddress? }");
  return TOKENIZABLE.fields.listConfigOf(v as Body, (c) => {
    const cip68 = scriptHashField(pick(c, "cip68ScriptAddress", "cip68ScriptHash", "cip68_script_address"), "config.cip68ScriptAddress");
    return cip68 !== undefined ? { cip68ScriptHash: cip68 } : {};
  });
}

function ownerOf(body: Body): IssueTerms["owner"] {
  const keyHash = keyHashField(pick(body, "ownerPubKeyHash", "owner_pub_key_hash"), "ownerPubKeyHash", false);
  if (keyHash) return { keyHash };
  const owner = pick(body, "owner", "ownerAddress", "owner_address");
  const ownerKeyHash = KeyHash.parse(owner);
  if (ownerKeyHash !== undefined) return { keyHash: ownerKeyHash };
  if (owner === undefined) return bad("ownerPubKeyHash", "is required (or ownerAddress): the key hash of the wallet that may redeem");
  return { address: addressField(owner, "ownerAddress") };
}

function termsOf(body: Body): IssueTerms {
  const certificate = TOKENIZABLE.fields.certificateOf(body, "{ hash, metadata? }");
  return {
    ...certificate,
    owner: ownerOf(body),
    assetName: assetNameOf(pick(body, "assetName", "asset_name", "assetNameHex"), certificate.key),
    bootstrapName: bootstrapNameOf(pick(body, "bootstrapTokenName", "bootstrap_token_name")),
  };
}

/** @throws TokenizableError INVALID_FIELD */
export function parseTokenizableRequest(body: Body): TokenizableRequest {
  return parseListRequest(TOKENIZABLE.fields, body, {
    own: { type: "redeem", action: "Redeem" },
    create: (b, address) => ({
      form: "reference",
      action: "Create",
      address,
      initRef: initRefOf(b, true)!,
      config: configOf(pick(b, "config")),
      terms: termsOf(b),
    }),
    ownRequest(b, form, address): RedeemRequest {
      const cert = pick(b, "certificate");
      const hash = cert && typeof cert === "object" && !Array.isArray(cert) ? pick(cert as Body, "hash") : undefined;
      const key = requiredDataHash(hash ?? pick(b, "key"), hash !== undefined ? "certificate.hash" : "key");
      const list: ListRef = form === "reference" ? { initRef: initRefOf(b, true)! } : listRefOf(b, "a Redeem");
      return { form, action: "Redeem", address, list, key };
    },
    terms: termsOf,
    config: configOf,
  });
}
