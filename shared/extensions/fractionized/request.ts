/**
 * The two body forms of `POST /extension/fractionized-certificate/build` (docs/api.md#fractionized-certificates;
 * the list kit reads what every list extension shares, list-request.ts), with the fractionized fields:
 * - reference form: `type: CREATE | REDEEM`, `senderAddress`, `initUtxoTxHash`/`initUtxoOutputIndex` (the list),
 *   `key`, `totalAmount`, `claimants`, `assetName?`, `config?`, `bootstrapTokenName?`, `amount`;
 * - spec form: `type: Init | Insert | Claim`, `address`, `policyId?`, `certificate { hash, metadata?, algorithm? }`,
 *   `tokenAmount`, `assetName?`, `claimants`, `claimer`, `amount`, `key`.
 * `assetName` is derived from the key (blake2b-224 of it); when given it must be that name.
 * Every problem is a FractionizedError INVALID_FIELD naming the field (AMOUNT_OUT_OF_RANGE for amounts).
 */
import type { DataHash, KeyHash } from "../../domain/hex";
import { parseListRequest, type AnchoredTerms, type ListIssueRequest } from "../list-kit/list-request";
import type { ListRef } from "../list-kit/list-source";
import { pick, type BaseListConfigRequest, type Body, type BodyForm } from "../list-kit/request-fields";
import { FRACTIONIZED, refuseFractionized } from "./extension";

export interface IssueTerms extends AnchoredTerms {
  readonly totalAmount: bigint;
  readonly claimants: readonly KeyHash[];
}

export type ClaimRequest = {
  readonly form: BodyForm;
  readonly action: "Claim";
  readonly address: string;
  readonly list: ListRef;
  readonly key: DataHash;
  /** default: the address's payment key */
  readonly claimer: KeyHash | undefined;
  readonly amount: bigint;
};

type FractionizedRequest = ListIssueRequest<IssueTerms, BaseListConfigRequest> | ClaimRequest;

/** Token amounts stay within JSON's exact integers, so status answers them as numbers. */
const MAX_TOKEN_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

const bad: (field: string, message: string) => never = FRACTIONIZED.fields.bad;
const { keyHashField, requiredDataHash, keyHashes, initRefOf, metadataOf, bootstrapNameOf, listRefOf, assetNameOf } = FRACTIONIZED.fields;

/** A positive integer (number or decimal string) up to MAX_TOKEN_AMOUNT; amounts ≤ 0 are AMOUNT_OUT_OF_RANGE. */
function amountField(v: unknown, field: string): bigint {
  if (v === undefined) bad(field, "is required");
  let n: bigint | undefined;
  if (typeof v === "number" && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === "string" && /^-?\d{1,20}$/.test(v.trim())) n = BigInt(v.trim());
  if (n === undefined) bad(field, "must be an integer");
  if (n <= 0n) refuseFractionized("AMOUNT_OUT_OF_RANGE", `${field} must be greater than 0 (got ${n})`, { field });
  if (n > MAX_TOKEN_AMOUNT) refuseFractionized("AMOUNT_OUT_OF_RANGE", `${field} must be at most ${MAX_TOKEN_AMOUNT}`, { field });
  return n;
}

function configOf(v: unknown): BaseListConfigRequest | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) bad("config", "must be an object { allowedInserters?, deployer? }");
  return FRACTIONIZED.fields.listConfigOf(v as Body, () => ({}));
}

/** @throws FractionizedError INVALID_FIELD / AMOUNT_OUT_OF_RANGE */
export function parseFractionizedRequest(body: Body): FractionizedRequest {
  return parseListRequest(FRACTIONIZED.fields, body, {
    own: { type: "claim", action: "Claim" },
    create(b, address) {
      const initRef = initRefOf(b, true)!;
      const key = requiredDataHash(pick(b, "key"), "key");
      return {
        form: "reference",
        action: "Create",
        address,
        initRef,
        config: configOf(pick(b, "config")),
        terms: {
          key,
          algorithm: undefined,
          metadata: metadataOf(pick(b, "metadata"), "metadata"),
          totalAmount: amountField(pick(b, "totalAmount", "total_amount"), "totalAmount"),
          claimants: keyHashes(pick(b, "claimants"), "claimants"),
          assetName: assetNameOf(pick(b, "assetName", "asset_name"), key),
          bootstrapName: bootstrapNameOf(pick(b, "bootstrapTokenName", "bootstrap_token_name")),
        },
      };
    },
    ownRequest(b, form, address): ClaimRequest {
      if (form === "reference") {
        const initRef = initRefOf(b, true)!;
        const key = requiredDataHash(pick(b, "key"), "key");
        const claimer = keyHashField(pick(b, "claimer"), "claimer", false);
        return { form, action: "Claim", address, list: { initRef }, key, claimer, amount: amountField(pick(b, "amount"), "amount") };
      }
      return {
        form,
        action: "Claim",
        address,
        list: listRefOf(b, "a Claim"),
        key: requiredDataHash(pick(b, "key"), "key"),
        claimer: keyHashField(pick(b, "claimer"), "claimer", false),
        amount: amountField(pick(b, "amount"), "amount"),
      };
    },
    terms(b): IssueTerms {
      const certificate = FRACTIONIZED.fields.certificateOf(b, "{ hash, metadata?, algorithm? }");
      return {
        ...certificate,
        totalAmount: amountField(pick(b, "tokenAmount", "totalAmount"), "tokenAmount"),
        claimants: keyHashes(pick(b, "claimants"), "claimants"),
        assetName: assetNameOf(pick(b, "assetName"), certificate.key),
        bootstrapName: bootstrapNameOf(pick(b, "bootstrapTokenName")),
      };
    },
    config: configOf,
  });
}
