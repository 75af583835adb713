/**
 * The two body forms of `POST /extension/fractionized-certificate/build` (docs/api.md#fractionized-certificates),
 * parsed into one request:
 * - reference form: `type: CREATE | REDEEM`, `senderAddress`, `initUtxoTxHash`/`initUtxoOutputIndex` (the list),
 *   `key`, `totalAmount`, `claimants`, `assetName?`, `config?`, `bootstrapTokenName?`, `amount`; CREATE is an
 *   Init when the list does not exist yet, else an Insert. Answered with the raw hex of the transaction;
 * - spec form: `type: Init | Insert | Claim`, `address`, `policyId?`, `certificate { hash, metadata?, algorithm? }`,
 *   `tokenAmount`, `assetName?`, `claimants`, `claimer`, `amount`, `key`. Answered with JSON.
 * `assetName` is derived from the key (blake2b-224 of it); when given it must be that name.
 * Every problem is a FractionizedError INVALID_FIELD naming the field.
 */
import { MAX_HASH_BYTES } from "../../domain/certificate-request";
import {
  pick,
  requestFields,
  type BaseListConfigRequest,
  type Body,
  type BodyForm,
  type ListIssueRequest,
} from "../list-kit/request-fields";
import { type ListRef } from "../list-kit/list-source";
import { refuseFractionized } from "./errors";

export type { BodyForm, ListRef };

export interface IssueTerms {
  readonly key: string;
  readonly algorithm: string | undefined;
  /** JSON text of an object, or "" */
  readonly metadata: string;
  readonly totalAmount: bigint;
  readonly claimants: readonly string[];
  /** blake2b_224(key), hex: the name of the node's tokens */
  readonly assetName: string;
  /** the bootstrap datum whose states anchor the key (default: any) */
  readonly bootstrapName: string | undefined;
}

export type FractionizedRequest =
  | ListIssueRequest<IssueTerms, BaseListConfigRequest>
  | {
      readonly form: BodyForm;
      readonly action: "Claim";
      readonly address: string;
      readonly list: ListRef;
      readonly key: string;
      /** key hash; default: the address's payment key */
      readonly claimer: string | undefined;
      readonly amount: bigint;
    };

/** Token amounts stay within JSON's exact integers, so status answers them as numbers. */
export const MAX_TOKEN_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

/** The shared field readers, refusing as FractionizedError. */
export const fractionizedFields = requestFields(refuseFractionized);
const bad: (field: string, message: string) => never = fractionizedFields.bad;
const { hexField, requiredHex, keyHashes, addressField, initRefOf, metadataOf, bootstrapNameOf, listRefOf, assetNameOf } =
  fractionizedFields;

/** A positive integer (number or decimal string) up to MAX_TOKEN_AMOUNT; amounts ≤ 0 are AMOUNT_OUT_OF_RANGE. */
export function amountField(v: unknown, field: string): bigint {
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
  return fractionizedFields.listConfigOf(v as Body, () => ({}));
}

const SPEC_TYPES = ["init", "insert", "claim"];
const REFERENCE_TYPES = ["create", "redeem"];

/** @throws FractionizedError INVALID_FIELD / AMOUNT_OUT_OF_RANGE */
export function parseFractionizedRequest(body: Body): FractionizedRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) bad("body", "must be a JSON object");
  const rawType = pick(body, "type");
  const type = typeof rawType === "string" ? rawType.trim().toLowerCase() : "";
  if (!SPEC_TYPES.includes(type) && !REFERENCE_TYPES.includes(type))
    bad("type", "must be Init, Insert or Claim (or the reference form's CREATE or REDEEM)");

  if (REFERENCE_TYPES.includes(type)) {
    const address = addressField(pick(body, "senderAddress", "sender_address", "address"), "senderAddress");
    const initRef = initRefOf(body, true)!;
    const key = requiredHex(pick(body, "key"), "key", { maxBytes: MAX_HASH_BYTES });
    if (type === "redeem") {
      const claimer = hexField(pick(body, "claimer"), "claimer", { bytes: 28, required: false });
      return {
        form: "reference",
        action: "Claim",
        address,
        list: { initRef },
        key,
        claimer,
        amount: amountField(pick(body, "amount"), "amount"),
      };
    }
    return {
      form: "reference",
      action: "Create",
      address,
      initRef,
      config: configOf(pick(body, "config")),
      terms: {
        key,
        algorithm: undefined,
        metadata: metadataOf(pick(body, "metadata"), "metadata"),
        totalAmount: amountField(pick(body, "totalAmount", "total_amount"), "totalAmount"),
        claimants: keyHashes(pick(body, "claimants"), "claimants"),
        assetName: assetNameOf(pick(body, "assetName", "asset_name"), key),
        bootstrapName: bootstrapNameOf(pick(body, "bootstrapTokenName", "bootstrap_token_name")),
      },
    };
  }

  const address = addressField(pick(body, "address", "senderAddress"), "address");
  if (type === "claim") {
    return {
      form: "spec",
      action: "Claim",
      address,
      list: listRefOf(body, "a Claim"),
      key: requiredHex(pick(body, "key"), "key", { maxBytes: MAX_HASH_BYTES }),
      claimer: hexField(pick(body, "claimer"), "claimer", { bytes: 28, required: false }),
      amount: amountField(pick(body, "amount"), "amount"),
    };
  }
  const certificate = fractionizedFields.certificateOf(body, "{ hash, metadata?, algorithm? }");
  const terms: IssueTerms = {
    ...certificate,
    totalAmount: amountField(pick(body, "tokenAmount", "totalAmount"), "tokenAmount"),
    claimants: keyHashes(pick(body, "claimants"), "claimants"),
    assetName: assetNameOf(pick(body, "assetName"), certificate.key),
    bootstrapName: bootstrapNameOf(pick(body, "bootstrapTokenName")),
  };
  if (type === "insert") return { form: "spec", action: "Insert", address, list: listRefOf(body, "an Insert"), terms };
  if (pick(body, "policyId") !== undefined) bad("policyId", "must be omitted for Init: Init creates a new list (use Insert to add to one)");
  return { form: "spec", action: "Init", address, initRef: initRefOf(body, false), config: configOf(pick(body, "config")), terms };
}
