/**
 * The request every list extension's build route reads, in its two body forms (docs/api.md#fractionized-certificates,
 * docs/api.md#tokenizable-certificates):
 * - reference form: `type: CREATE | REDEEM`, `senderAddress`, the list by its init output reference; CREATE is an
 *   Init when the list does not exist yet, else an Insert. Answered with the raw hex of the transaction;
 * - spec form: `type: Init | Insert | <own>`, `address`, the list by `policyId` (or the init output reference),
 *   `certificate { hash, metadata?, algorithm? }`. Answered with JSON.
 * The extension reads its own fields (the terms of a node, its config, its own transition).
 */
import type { OutRef } from "../../domain/out-ref";
import type { ListRef } from "./list-source";
import { pick, type BaseListConfigRequest, type Body, type BodyForm, type CertificateFields, type RequestFields } from "./request-fields";

/** The terms of the certificate an Init or Insert anchors. */
export interface AnchoredTerms extends CertificateFields {
  /** blake2b_224(key), hex: the name of the node's tokens */
  readonly assetName: string;
  /** the bootstrap datum whose states anchor the key (default: any) */
  readonly bootstrapName: string | undefined;
}

/** The issuing requests of every list extension: Init, Insert, and the reference form's CREATE (either). */
export type ListIssueRequest<Terms, Config> =
  | {
      readonly form: BodyForm;
      readonly action: "Init";
      readonly address: string;
      readonly initRef: OutRef | undefined;
      readonly config: Config | undefined;
      readonly terms: Terms;
    }
  | { readonly form: BodyForm; readonly action: "Insert"; readonly address: string; readonly list: ListRef; readonly terms: Terms }
  /** reference CREATE: Init or Insert, depending on whether the list exists */
  | {
      readonly form: "reference";
      readonly action: "Create";
      readonly address: string;
      readonly initRef: OutRef;
      readonly config: Config | undefined;
      readonly terms: Terms;
    };

export function isIssueRequest<Terms, Config>(req: { readonly action: string }): req is ListIssueRequest<Terms, Config> {
  return req.action === "Init" || req.action === "Insert" || req.action === "Create";
}

/** What an extension reads itself. */
interface ListRequestReader<Terms, Config extends BaseListConfigRequest, Own> {
  /** the spec-form type of its own transition, and the action it names ("claim" / "Claim", "redeem" / "Redeem") */
  readonly own: { readonly type: string; readonly action: string };
  /** the reference form's CREATE, in the order the extension reads its fields */
  create(body: Body, address: string): ListIssueRequest<Terms, Config>;
  /** its own transition, in either form */
  ownRequest(body: Body, form: BodyForm, address: string): Own;
  /** the spec form's terms of an Init or Insert */
  terms(body: Body): Terms;
  /** an Init's `config` */
  config(v: unknown): Config | undefined;
}

/** @throws the extension's INVALID_FIELD (and whatever its own readers refuse) */
export function parseListRequest<Terms, Config extends BaseListConfigRequest, Own>(
  fields: RequestFields,
  body: Body,
  ext: ListRequestReader<Terms, Config, Own>,
): ListIssueRequest<Terms, Config> | Own {
  const { bad } = fields;
  if (typeof body !== "object" || body === null || Array.isArray(body)) bad("body", "must be a JSON object");
  const rawType = pick(body, "type");
  const raw = typeof rawType === "string" ? rawType.trim() : "";
  const type = raw.toLowerCase();
  if (!["init", "insert", ext.own.type, "create", "redeem"].includes(type))
    bad("type", `must be Init, Insert or ${ext.own.action} (or the reference form's CREATE or REDEEM)`);
  // The reference form names the sender senderAddress; its REDEEM is written in capitals where the spec form has a
  // type of the same name.
  const reference = type === "create" || (type === "redeem" && (ext.own.type !== "redeem" || raw === "REDEEM"));
  const address = reference
    ? fields.addressField(pick(body, "senderAddress", "sender_address", "address"), "senderAddress")
    : fields.addressField(pick(body, "address", "senderAddress"), "address");
  const form: BodyForm = reference ? "reference" : "spec";
  if (type === "create") return ext.create(body, address);
  if (type === "redeem" || type === ext.own.type) return ext.ownRequest(body, form, address);
  const terms = ext.terms(body);
  if (type === "insert") return { form, action: "Insert", address, list: fields.listRefOf(body, "an Insert"), terms };
  if (pick(body, "policyId") !== undefined) bad("policyId", "must be omitted for Init: Init creates a new list (use Insert to add to one)");
  return { form, action: "Init", address, initRef: fields.initRefOf(body, false), config: ext.config(pick(body, "config")), terms };
}
