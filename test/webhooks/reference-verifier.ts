/**
 * A receiver's verification written after the reference library of the Standard Webhooks project
 * (standard-webhooks/standard-webhooks, libraries/javascript/src/index.ts at b2fa7b8, MIT; published on npm as
 * `standardwebhooks`): the secret with or without `whsec_`, base64-decoded; `<id>.<timestamp>.<body>` signed with
 * HMAC-SHA256; each space-separated `v1,` signature compared; a 5-minute tolerance. It shares no code with
 * shared/webhooks/signature.ts. The `standardwebhooks` package itself is not among the project's dependencies yet:
 * when it is, these tests should verify with its `Webhook` class instead of this transcription.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const TOLERANCE_SECONDS = 5 * 60;

export class ReferenceVerificationError extends Error {}

export class ReferenceWebhook {
  private readonly key: Buffer;

  constructor(secret: string) {
    const unprefixed = secret.startsWith("whsec_") ? secret.substring("whsec_".length) : secret;
    this.key = Buffer.from(unprefixed, "base64");
    if (this.key.length === 0) throw new Error("Secret can't be empty.");
  }

  /** Returns the parsed body; throws ReferenceVerificationError. `nowMs` stands for the library's `Date.now()`. */
  verify(payload: string, headersIn: Record<string, string | string[] | undefined>, nowMs = Date.now()): unknown {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(headersIn)) if (typeof v === "string") headers[k.toLowerCase()] = v;
    const msgId = headers["webhook-id"];
    const msgSignature = headers["webhook-signature"];
    const msgTimestamp = headers["webhook-timestamp"];
    if (!msgSignature || !msgId || !msgTimestamp) throw new ReferenceVerificationError("Missing required headers");
    const now = Math.floor(nowMs / 1000);
    const timestamp = parseInt(msgTimestamp, 10);
    if (isNaN(timestamp)) throw new ReferenceVerificationError("Invalid Signature Headers");
    if (now - timestamp > TOLERANCE_SECONDS) throw new ReferenceVerificationError("Message timestamp too old");
    if (timestamp > now + TOLERANCE_SECONDS) throw new ReferenceVerificationError("Message timestamp too new");
    const expected = this.sign(msgId, timestamp, payload).split(",")[1]!;
    for (const versioned of msgSignature.split(" ")) {
      const [version, signature] = versioned.split(",");
      if (version !== "v1" || signature === undefined) continue;
      const a = Buffer.from(signature);
      const b = Buffer.from(expected);
      if (a.length === b.length && timingSafeEqual(a, b)) return payload === "" ? undefined : JSON.parse(payload);
    }
    throw new ReferenceVerificationError("No matching signature found");
  }

  sign(msgId: string, timestampSeconds: number, payload: string): string {
    return `v1,${createHmac("sha256", this.key).update(`${msgId}.${timestampSeconds}.${payload}`).digest("base64")}`;
  }
}
