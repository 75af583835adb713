/**
 * The social-hub datum: `Constr 0 [owner, batch_id, item_name, picture, name, subtitle, x, telegram, discord,
 * youtube, website, email, ada_handle, reddit, instagram, github, linkedin]`; every profile field is an
 * `Option<ByteArray>` (Some = Constr 0 [B], None = Constr 1 []) holding an AES-256-GCM ciphertext made off chain
 * as nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes). The validator only bounds sizes: a set field is 29..664
 * bytes, room for 1..159 characters of up to 4 UTF-8 bytes each. An empty value is None, not an empty ciphertext.
 */
import { bytes, constr, type Data, expectBytes, expectConstr, expectOptionBytes, optionBytes } from "../../protocol/plutus-data";
import { ProtocolError } from "../../protocol/errors";
import { BATCH_ID_BYTES, MAX_ITEM_NAME_BYTES } from "./goods-token-names";
import { PROFILE_FIELDS, type ProfileField } from "./profile-fields";

/** AES-256-GCM framing around the plaintext: 12-byte nonce and 16-byte tag. */
const PROFILE_CIPHER_OVERHEAD_BYTES = 28;
/** Plaintext limit in characters, and the UTF-8 bytes that many characters can take. */
export const MAX_PROFILE_CHARS = 159;
const MAX_PROFILE_PLAINTEXT_BYTES = MAX_PROFILE_CHARS * 4;
export const MIN_PROFILE_FIELD_BYTES = 1 + PROFILE_CIPHER_OVERHEAD_BYTES;
export const MAX_PROFILE_FIELD_BYTES = MAX_PROFILE_PLAINTEXT_BYTES + PROFILE_CIPHER_OVERHEAD_BYTES;

export interface SocialHubDatum {
  /** payment key hash of the owner (56 hex) */
  readonly owner: string;
  /** 32 bytes hex */
  readonly batchId: string;
  /** the claimed item's token name, hex */
  readonly itemName: string;
  /** set fields only: ciphertext hex (nonce ‖ ciphertext ‖ tag) */
  readonly profile: Readonly<Partial<Record<ProfileField, string>>>;
}

/** @throws ProtocolError INVALID_FIELD when a ciphertext is outside 29..664 bytes */
function checkCiphertext(field: ProfileField, hex: string): string {
  const b = expectBytes(bytes(hex), field);
  const n = b.length / 2;
  if (n < MIN_PROFILE_FIELD_BYTES || n > MAX_PROFILE_FIELD_BYTES) {
    throw new ProtocolError(
      "INVALID_FIELD",
      `${field}: a ciphertext must be ${MIN_PROFILE_FIELD_BYTES}..${MAX_PROFILE_FIELD_BYTES} bytes`,
      { field, bytes: n },
    );
  }
  return b;
}

/** @throws ProtocolError INVALID_FIELD for a field the validator would refuse */
export function encodeSocialHubDatum(d: SocialHubDatum): Data {
  const itemName = expectBytes(bytes(d.itemName), "itemName");
  if (itemName.length === 0 || itemName.length > MAX_ITEM_NAME_BYTES * 2) {
    throw new ProtocolError("INVALID_FIELD", "itemName must be 1..32 bytes", { itemName });
  }
  return constr(0, [
    bytes(expectBytes(bytes(d.owner), "owner", 28)),
    bytes(expectBytes(bytes(d.batchId), "batchId", BATCH_ID_BYTES)),
    bytes(itemName),
    ...PROFILE_FIELDS.map((f) => {
      const v = d.profile[f];
      return optionBytes(v === undefined ? undefined : checkCiphertext(f, v));
    }),
  ]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeSocialHubDatum(d: Data): SocialHubDatum {
  const { fields: f } = expectConstr(d, "social hub datum", { index: 0, arity: 3 + PROFILE_FIELDS.length });
  const profile: Partial<Record<ProfileField, string>> = {};
  PROFILE_FIELDS.forEach((name, i) => {
    const value = expectOptionBytes(f[3 + i], name);
    if (value !== undefined) profile[name] = checkCiphertext(name, value);
  });
  return {
    owner: expectBytes(f[0], "owner", 28),
    batchId: expectBytes(f[1], "batchId", BATCH_ID_BYTES),
    itemName: expectBytes(f[2], "itemName"),
    profile,
  };
}
