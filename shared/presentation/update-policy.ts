/**
 * Which submissions of a certificate hash are shown, and whose metadata drives the page (docs/decisions.md#update-policies,
 * "Update policy"). The first submission sets the policy (`uverify_update_policy`, default `append`), the owner
 * (`uverify_owner`, default its issuer) and the whitelist (`uverify_update_whitelist`, comma list). Later
 * submissions by the owner may change the policy (`uverify_update_policy` / `uverify_policy`), transfer ownership
 * (`uverify_owner`) or replace the whitelist; `frozen` ends all changes.
 *
 * Display: first/frozen → the first only; override → the latest with non-reserved content; restricted → first +
 * owner's; whitelist → first + owner's + whitelisted; accumulate → metadata merged over the authorised
 * submissions (first value wins); append → all. The metadata of the page is the latest displayed submission's
 * (merged for accumulate).
 */
import { parseMetadataObject } from "../domain/certificate-metadata";
import { KeyHash } from "../domain/hex";

const UPDATE_POLICIES = ["append", "first", "override", "restricted", "whitelist", "accumulate", "frozen"] as const;
export type UpdatePolicy = (typeof UPDATE_POLICIES)[number];

export interface Submission {
  /** Raw metadata string as issued. */
  metadata: string;
  /** Payment credential of the issuer (56 hex). */
  issuer: string;
}

export interface DisplayResult<S extends Submission> {
  policy: UpdatePolicy;
  owner: string;
  displayed: S[];
  /** Metadata driving the page (parsed; empty object when none parses). */
  metadata: Record<string, unknown>;
  /**
   * Metadata of link previews: like `metadata`, but only from submissions the policy authorises (the first, the
   * owner's, whitelisted ones) — under `append` anyone may add a submission to the page, not rewrite its preview.
   */
  preview: Record<string, unknown>;
  /** The submission `preview` comes from (for accumulate, the first): its issuer stands behind the certificate. */
  source: S;
  /**
   * The submissions whose issuer the policy lets speak for the certificate (the first, the owner's, whitelisted
   * ones under `whitelist` and `accumulate`), shown or not. Any other anchor of the hash is a stranger's: a page
   * linking to it must not present it as the certificate's.
   */
  authorised: S[];
}

/** Each policy in the words the certificate page shows. */
export const POLICY_SENTENCES: Readonly<Record<UpdatePolicy, string>> = {
  append: "append: every anchor of this hash is listed; only the issuer's own anchors speak for the certificate",
  first: "first: the first anchor is permanent",
  frozen: "frozen: the certificate can no longer change",
  override: "override: the latest anchor with content replaces the earlier ones",
  restricted: "restricted: only the owner may update the certificate",
  whitelist: "whitelist: the owner and the addresses it lists may update the certificate",
  accumulate: "accumulate: the owner's and listed updates add fields; the first value of a field stays",
};

export function isReservedKey(key: string): boolean {
  return key.startsWith("uverify_") || key.startsWith("uv_og_") || key === "uv_tid";
}

const policyOf = (v: unknown): UpdatePolicy | undefined =>
  typeof v === "string" && (UPDATE_POLICIES as readonly string[]).includes(v) ? (v as UpdatePolicy) : undefined;
/** A key hash the metadata names (an owner, a whitelist entry); anything else is kept as written and matches no issuer. */
const keyHashOf = (s: string): string => KeyHash.parse(s) ?? s;
const listOf = (v: unknown): string[] =>
  typeof v === "string"
    ? v
        .split(",")
        .map((s) => keyHashOf(s.trim()))
        .filter((s) => s !== "")
    : [];
const hasContent = (m: Record<string, unknown>) => Object.keys(m).some((k) => !isReservedKey(k));

/** @param submissions oldest first; must not be empty */
export function resolveDisplay<S extends Submission>(submissions: readonly S[]): DisplayResult<S> {
  const first = submissions[0];
  if (!first) throw new RangeError("resolveDisplay needs at least one submission");
  const parsed = submissions.map((s) => parseMetadataObject(s.metadata) ?? {});
  const head = parsed[0]!;
  let policy: UpdatePolicy = policyOf(head["uverify_update_policy"]) ?? "append";
  let owner = typeof head["uverify_owner"] === "string" && head["uverify_owner"] !== "" ? keyHashOf(head["uverify_owner"]) : first.issuer;
  let whitelist = listOf(head["uverify_update_whitelist"]);

  for (let i = 1; i < submissions.length && policy !== "frozen"; i++) {
    if (submissions[i]!.issuer !== owner) continue;
    const m = parsed[i]!;
    const next = policyOf(m["uverify_update_policy"]) ?? policyOf(m["uverify_policy"]);
    if (next) policy = next;
    if (typeof m["uverify_update_whitelist"] === "string") whitelist = listOf(m["uverify_update_whitelist"]);
    if (typeof m["uverify_owner"] === "string" && m["uverify_owner"] !== "") owner = keyHashOf(m["uverify_owner"]);
  }

  const indices = submissions.map((_, i) => i);
  const authorised = (i: number) =>
    i === 0 ||
    submissions[i]!.issuer === owner ||
    ((policy === "whitelist" || policy === "accumulate") && whitelist.includes(submissions[i]!.issuer));
  let shown: number[];
  let metadata: Record<string, unknown>;
  switch (policy) {
    case "first":
    case "frozen":
      shown = [0];
      break;
    case "override": {
      const latest = [...indices].reverse().find((i) => hasContent(parsed[i]!)) ?? 0;
      shown = [latest];
      break;
    }
    case "restricted":
      shown = indices.filter((i) => i === 0 || submissions[i]!.issuer === owner);
      break;
    case "whitelist":
      shown = indices.filter(authorised);
      break;
    case "accumulate":
      shown = indices.filter(authorised);
      break;
    case "append":
      shown = indices;
      break;
  }
  if (policy === "accumulate") {
    metadata = {};
    for (const i of shown) for (const [k, v] of Object.entries(parsed[i]!)) if (!(k in metadata)) metadata[k] = v;
  } else {
    metadata = parsed[shown[shown.length - 1]!]!;
  }
  const lastAuthorised = [...shown].reverse().find(authorised) ?? 0;
  const preview = policy === "accumulate" ? metadata : parsed[lastAuthorised]!;
  const source = submissions[policy === "accumulate" ? 0 : lastAuthorised]!;
  return {
    policy,
    owner,
    displayed: shown.map((i) => submissions[i]!),
    metadata,
    preview,
    source,
    authorised: indices.filter(authorised).map((i) => submissions[i]!),
  };
}
