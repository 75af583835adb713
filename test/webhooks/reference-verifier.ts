/**
 * The receiver's side, by the Standard Webhooks project's own library (`standardwebhooks` on npm, MIT), which shares
 * no code with shared/webhooks/signature.ts. The library reads the clock itself for its 5-minute tolerance; tests
 * that run on an injected clock pass it as `nowMs`, which stands for `Date.now()` during the one call.
 */
import { Webhook, WebhookVerificationError } from "standardwebhooks";

export { WebhookVerificationError as ReferenceVerificationError };

export class ReferenceWebhook {
  private readonly webhook: Webhook;

  constructor(secret: string) {
    this.webhook = new Webhook(secret);
  }

  /** The parsed body; throws the library's WebhookVerificationError. */
  verify(payload: string, headersIn: Record<string, string | string[] | undefined>, nowMs?: number): unknown {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(headersIn)) if (typeof v === "string") headers[k.toLowerCase()] = v;
    if (nowMs === undefined) return this.webhook.verify(payload, headers);
    const realNow = Date.now;
    Date.now = () => nowMs;
    try {
      return this.webhook.verify(payload, headers);
    } finally {
      Date.now = realNow;
    }
  }

  /** The library's signature of a message. */
  sign(msgId: string, timestampSeconds: number, payload: string): string {
    return this.webhook.sign(msgId, new Date(timestampSeconds * 1000), payload);
  }
}
