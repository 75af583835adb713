/**
 * Identity records carried in certificate metadata (docs/api.md#identity-records): a certificate whose template id is
 * `IdentityAuth` and whose field `t` is `AUTH` registers a credential (`ct` type, optional KERI `i`, schema `s`,
 * OOBI `o`); `t: "REVOKE"` with `th` = the AUTH certificate's hash revokes it. Anything else is not an identity record.
 * An AUTH without its credential type, or a REVOKE without a hash, would be anchored and never read: the builds refuse
 * them (identityRecordProblem).
 */
import { parseMetadataObject, templateIdOf } from "../domain/certificate-metadata";
import { DataHash } from "../domain/hex";

const IDENTITY_TEMPLATE_ID = "IdentityAuth";

export type IdentityRecord =
  | { kind: "AUTH"; credentialType: string; keriAid: string | null; schema: string | null; oobi: string | null }
  | { kind: "REVOKE"; targetHash: DataHash };

const optionalString = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

export function identityRecordOf(metadata: string): IdentityRecord | undefined {
  if (templateIdOf(metadata) !== IDENTITY_TEMPLATE_ID) return undefined;
  const obj = parseMetadataObject(metadata)!;
  if (obj["t"] === "AUTH") {
    const ct = optionalString(obj["ct"]);
    if (ct === null) return undefined;
    return {
      kind: "AUTH",
      credentialType: ct,
      keriAid: optionalString(obj["i"]),
      schema: optionalString(obj["s"]),
      oobi: optionalString(obj["o"]),
    };
  }
  if (obj["t"] === "REVOKE") {
    const targetHash = DataHash.parse(obj["th"]);
    return targetHash === undefined ? undefined : { kind: "REVOKE", targetHash };
  }
  return undefined;
}

/**
 * What keeps a certificate's metadata from being the identity record it announces (template `IdentityAuth` and
 * `t` AUTH or REVOKE), in words; undefined for a complete record, and for metadata that announces none.
 */
export function identityRecordProblem(metadata: string): string | undefined {
  if (templateIdOf(metadata) !== IDENTITY_TEMPLATE_ID) return undefined;
  const obj = parseMetadataObject(metadata)!;
  if (obj["t"] === "AUTH" && optionalString(obj["ct"]) === null)
    return 'is an IdentityAuth AUTH record without its credential type: add "ct" (a non-empty string, e.g. "KYC"), or it would be anchored and never registered';
  if (obj["t"] === "REVOKE" && DataHash.parse(obj["th"]) === undefined)
    return 'is an IdentityAuth REVOKE record without the hash it revokes: add "th" (the AUTH certificate\'s hash, hex), or it would be anchored and revoke nothing';
  return undefined;
}
