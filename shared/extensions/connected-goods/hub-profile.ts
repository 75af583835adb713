/**
 * The social-hub profile off chain: plaintext rules, and the AES-256-GCM sealing of each field under the item's
 * **hub key** (docs/connected-goods.md#profile-encryption).
 *
 * hub key = scrypt(item id, "cert-anchor/connected-goods/hub-key/v1" ‖ 0x00 ‖ deployment salt ‖ batch id,
 *                  N = 2^14, r = 8, p = 1, 32 bytes)
 * where the item id is the SHA-256 hex (lower case) of the claiming password. A field is sealed as
 * nonce (12 random bytes) ‖ ciphertext ‖ tag (16 bytes) with the item name and field name as associated data, so a
 * ciphertext cannot be moved to another item or field. The key is the same for every field of one item, and
 * differs between the items of a batch (their passwords are distinct), so the hub that opens under a key is the
 * item that key belongs to: that is how a read finds the item without its name.
 *
 * Invariant: item ids, passwords and keys never appear in errors or logs.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { Hash32 } from "../../domain/hex";
import { unprintableProblem } from "../../domain/printable-text";
import { PROFILE_FIELDS, PROFILE_JSON_NAMES, type ProfileField } from "./profile-fields";
import { MAX_PROFILE_CHARS } from "./social-hub-datum";
import { ConnectedGoodsError } from "./errors";
import { runScrypt, type KdfCaller } from "./kdf";

const HUB_KEY_DOMAIN = "cert-anchor/connected-goods/hub-key/v1";
const HUB_KEY_SCRYPT = { N: 2 ** 14, r: 8, p: 1, keyLength: 32 } as const;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export type PlainProfile = Partial<Record<ProfileField, string>>;

const WEBSITE_PREFIXES = ["http://", "https://", "ipfs://"];

/**
 * The profile a request carries (`social_hub`, snake_case; `adaHandle` is accepted too), checked: strings of at most
 * 159 characters, printable (no control character or lone surrogate, shared/domain/printable-text.ts), website starting with http://, https:// or ipfs://; an empty or null value
 * leaves the field unset. Unknown keys (such as `owner`, which the service sets) are ignored.
 * @throws ConnectedGoodsError INVALID_SOCIAL_HUB
 */
export function parseProfile(input: unknown, opts: { requireOne: boolean }): PlainProfile {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ConnectedGoodsError("INVALID_SOCIAL_HUB", "social_hub must be an object of profile fields (name, picture, website, …)");
  }
  const body = input as Record<string, unknown>;
  const out: PlainProfile = {};
  for (const field of PROFILE_FIELDS) {
    const json = PROFILE_JSON_NAMES[field];
    const value = body[json] ?? body[field];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string")
      throw new ConnectedGoodsError("INVALID_SOCIAL_HUB", `social_hub.${json} must be a string`, { field: json });
    const chars = [...value].length;
    if (chars > MAX_PROFILE_CHARS) {
      throw new ConnectedGoodsError(
        "INVALID_SOCIAL_HUB",
        `social_hub.${json} is ${chars} characters long; the limit is ${MAX_PROFILE_CHARS}`,
        {
          field: json,
          max: MAX_PROFILE_CHARS,
        },
      );
    }

    const unprintable = unprintableProblem(value);
    if (unprintable !== undefined)
      throw new ConnectedGoodsError("INVALID_SOCIAL_HUB", `social_hub.${json} ${unprintable}`, { field: json });
    if (field === "website" && !WEBSITE_PREFIXES.some((p) => value.toLowerCase().startsWith(p))) {
      throw new ConnectedGoodsError("INVALID_SOCIAL_HUB", "social_hub.website must start with http://, https:// or ipfs://", {
        field: json,
      });
    }
    out[field] = value;
  }
  if (opts.requireOne && Object.keys(out).length === 0) {
    throw new ConnectedGoodsError(
      "INVALID_SOCIAL_HUB",
      "social_hub needs at least one non-empty field (name, picture, website, …): the item is found again through it",
    );
  }
  return out;
}

/** The item id of a password: SHA-256 of its NFKC UTF-8 bytes, lower-case hex. */
export function itemIdOf(password: string): string {
  return createHash("sha256")
    .update(Buffer.from(password.normalize("NFKC"), "utf8"))
    .digest("hex");
}

/** `itemId` as a read receives it: a 64-hex item id, or else the password itself. */
export function itemIdFromInput(input: string): string {
  return Hash32.parse(input) ?? itemIdOf(input);
}

/** An AES-256-GCM key for one item's profile; the key bytes stay private. */
export class HubKey {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = Buffer.from(key);
  }

  /** nonce ‖ ciphertext ‖ tag, hex */
  seal(itemName: string, field: ProfileField, text: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, nonce);
    cipher.setAAD(aad(itemName, field));
    const ct = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
    return Buffer.concat([nonce, ct, cipher.getAuthTag()]).toString("hex");
  }

  /** The plaintext, or undefined when the ciphertext was not sealed under this key for this item and field. */
  open(itemName: string, field: ProfileField, sealedHex: string): string | undefined {
    const b = Buffer.from(sealedHex, "hex");
    if (b.length < NONCE_BYTES + TAG_BYTES + 1) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, b.subarray(0, NONCE_BYTES));
      decipher.setAAD(aad(itemName, field));
      decipher.setAuthTag(b.subarray(b.length - TAG_BYTES));
      return Buffer.concat([decipher.update(b.subarray(NONCE_BYTES, b.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  }

  sealProfile(itemName: string, profile: PlainProfile): Partial<Record<ProfileField, string>> {
    const out: Partial<Record<ProfileField, string>> = {};
    for (const f of PROFILE_FIELDS) if (profile[f] !== undefined) out[f] = this.seal(itemName, f, profile[f]);
    return out;
  }

  /** Every field opened, or undefined when any set field does not open (not this item's key). */
  openProfile(itemName: string, sealed: Partial<Record<ProfileField, string>>): PlainProfile | undefined {
    const out: PlainProfile = {};
    let opened = 0;
    for (const f of PROFILE_FIELDS) {
      const s = sealed[f];
      if (s === undefined) continue;
      const text = this.open(itemName, f, s);
      if (text === undefined) return undefined;
      out[f] = text;
      opened += 1;
    }
    return opened > 0 ? out : undefined;
  }

  toString(): string {
    return "HubKey(…)";
  }

  toJSON(): string {
    return this.toString();
  }
}

const aad = (itemName: string, field: ProfileField): Buffer => Buffer.from(`${itemName}/${field}`, "utf8");

/**
 * Derives hub keys, with a bounded cache (item id and batch id → key) so repeated reads of one item cost one AES
 * decryption instead of a KDF run. Concurrent derivations of the same key share one run (paid by the caller that
 * started it); a cached key costs no budget.
 */
export class HubKeys {
  private readonly cache = new Map<string, Promise<HubKey>>();

  constructor(
    private readonly deploymentSalt: string,
    private readonly capacity = 2048,
  ) {}

  get(itemId: string, batchId: string, caller?: KdfCaller): Promise<HubKey> {
    const cacheKey = cacheKeyOf(itemId, batchId);
    const hit = this.cache.get(cacheKey);
    if (hit) {
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, hit);
      // The run this joined failed (its own caller gone or out of budget, which is not this caller's fault): the
      // failed entry is gone by now, so this derives afresh, for this caller.
      return hit.catch(() => this.get(itemId, batchId, caller));
    }
    const derived = this.derive(itemId, batchId, caller);
    this.cache.set(cacheKey, derived);
    derived.catch(() => this.cache.delete(cacheKey));
    while (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
    return derived;
  }

  private async derive(itemId: string, batchId: string, caller: KdfCaller | undefined): Promise<HubKey> {
    const salt = Buffer.concat([
      Buffer.from(HUB_KEY_DOMAIN, "utf8"),
      Buffer.of(0),
      Buffer.from(this.deploymentSalt, "utf8"),
      Buffer.of(0),
      Buffer.from(batchId, "hex"),
    ]);
    const key = await runScrypt(caller, Buffer.from(itemId, "utf8"), salt, HUB_KEY_SCRYPT);
    try {
      return new HubKey(key);
    } finally {
      key.fill(0);
    }
  }
}

const cacheKeyOf = (itemId: string, batchId: string): string => createHash("sha256").update(`${itemId}|${batchId}`).digest("hex");
