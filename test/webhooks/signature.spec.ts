/**
 * Standard Webhooks signatures: the vectors published with the reference libraries, our signatures checked by a
 * verifier written after the reference library, and the receiver's checks (tolerance, rotation, tampering).
 */
import { expect } from "chai";
import {
  generateSecret,
  messageBody,
  messageIdOf,
  secretKey,
  sign,
  signedHeaders,
  verifyWebhook,
  type LogEvent,
  type WebhookErrorType,
} from "../../shared/webhooks";
import { ReferenceWebhook } from "./reference-verifier";

function typeOfError(action: () => unknown): WebhookErrorType | undefined {
  try {
    action();
  } catch (err) {
    return (err as { type?: WebhookErrorType }).type;
  }
  return expect.fail("expected a WebhookError");
}

describe("webhooks: Standard Webhooks signatures", () => {
  describe("the published vectors", () => {
    // libraries/{javascript,python,php,ruby,go} tests of standard-webhooks/standard-webhooks ("sign function works")
    it("signs the reference libraries' vector: whsec_MfKQ…, msg_p5jXN8AQM9LWM0D4loKWxJek, 1614265330", () => {
      expect(sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')).to.equal(
        "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
      );
    });

    // libraries/rust/src/lib.rs test_sign
    it("signs the Rust library's vector: whsec_C2FV…, msg_27UH4WbU6Z5A5EzD8u03UvzRbpk, 1649367553", () => {
      expect(
        sign(
          "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD",
          "msg_27UH4WbU6Z5A5EzD8u03UvzRbpk",
          1649367553,
          '{"email":"test@example.com","username":"test_user"}',
        ),
      ).to.equal("v1,tZ1I4/hDygAJgO5TYxiSd6Sd0kDW6hPenDe+bTa3Kkw=");
    });

    it("verifies the vector with the secret written with or without whsec_", () => {
      const headers = {
        "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "webhook-timestamp": "1614265330",
        "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
      };
      for (const secret of ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"])
        expect(verifyWebhook(secret, '{"test": 2432232314}', headers, { nowSeconds: 1614265330 + 60 })).to.equal(
          "msg_p5jXN8AQM9LWM0D4loKWxJek",
        );
    });
  });

  describe("what we send, checked by the reference verifier", () => {
    const event: LogEvent = {
      id: "42",
      type: "certificate.anchored",
      timestamp: "2026-01-01T00:00:00.000Z",
      block: { slot: 5, id: "cd".repeat(32), height: 3 },
      subjects: ["hash:" + "ef".repeat(32)],
      data: { text: "é ✓ 𝄞", n: 1 },
    };

    it("makes secrets whsec_ + base64 of 32 random bytes, each different", () => {
      const a = generateSecret();
      const b = generateSecret();
      expect(a).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secretKey(a)).to.have.length(32);
      expect(a).to.not.equal(b);
    });

    it("signs the body as sent (UTF-8 bytes), with the event's id as webhook-id and the payload {type, timestamp, data}", () => {
      const secret = generateSecret();
      const body = messageBody(event);
      const nowSeconds = 1_780_000_000;
      const headers = signedHeaders([secret], messageIdOf(event.id), nowSeconds, body);
      expect(headers["webhook-id"]).to.equal("evt_42");
      expect(headers["webhook-timestamp"]).to.equal(String(nowSeconds));
      const parsed = new ReferenceWebhook(secret).verify(body, { ...headers }, nowSeconds * 1000) as Record<string, unknown>;
      expect(parsed).to.deep.include({ type: event.type, timestamp: event.timestamp, data: event.data, eventId: "42" });
      expect(Object.keys(parsed).slice(0, 3)).to.deep.equal(["type", "timestamp", "data"]);
    });

    it("signs with every secret in force during a rotation, and either secret verifies", () => {
      const [old, current] = [generateSecret(), generateSecret()];
      const body = messageBody(event);
      const headers = signedHeaders([current, old], "evt_42", 1_780_000_000, body);
      expect(headers["webhook-signature"].split(" ")).to.have.length(2);
      for (const secret of [old, current]) new ReferenceWebhook(secret).verify(body, { ...headers }, 1_780_000_000_000);
      expect(() => new ReferenceWebhook(generateSecret()).verify(body, { ...headers }, 1_780_000_000_000)).to.throw(
        "No matching signature",
      );
    });
  });

  describe("verifyWebhook (the receiver's side)", () => {
    const secret = generateSecret();
    const body = '{"type":"t","timestamp":"2026-01-01T00:00:00Z","data":{}}';
    const at = 1_780_000_000;
    const headers = signedHeaders([secret], "evt_7", at, body);

    it("accepts within five minutes either way and refuses beyond", () => {
      expect(verifyWebhook(secret, body, headers, { nowSeconds: at + 300 })).to.equal("evt_7");
      expect(verifyWebhook(secret, body, headers, { nowSeconds: at - 300 })).to.equal("evt_7");
      expect(typeOfError(() => verifyWebhook(secret, body, headers, { nowSeconds: at + 301 }))).to.equal("INVALID_WEBHOOK_SIGNATURE");
      expect(typeOfError(() => verifyWebhook(secret, body, headers, { nowSeconds: at - 301 }))).to.equal("INVALID_WEBHOOK_SIGNATURE");
    });

    it("refuses a changed body, id or timestamp, a missing header, a v1a or partial signature, another secret", () => {
      const refuse = (b: string, h: Record<string, string>, s = secret) => typeOfError(() => verifyWebhook(s, b, h, { nowSeconds: at }));
      expect(refuse(body.replace("{}", '{"x":1}'), { ...headers })).to.equal("INVALID_WEBHOOK_SIGNATURE");
      expect(refuse(body, { ...headers, "webhook-id": "evt_8" })).to.equal("INVALID_WEBHOOK_SIGNATURE");
      expect(refuse(body, { ...headers, "webhook-timestamp": String(at + 1) })).to.equal("INVALID_WEBHOOK_SIGNATURE");
      const { ["webhook-signature"]: _sig, ...unsigned } = headers;
      expect(refuse(body, unsigned)).to.equal("INVALID_WEBHOOK_SIGNATURE");
      expect(refuse(body, { ...headers, "webhook-signature": headers["webhook-signature"].replace("v1,", "v1a,") })).to.equal(
        "INVALID_WEBHOOK_SIGNATURE",
      );
      expect(refuse(body, { ...headers, "webhook-signature": headers["webhook-signature"].slice(0, 12) })).to.equal(
        "INVALID_WEBHOOK_SIGNATURE",
      );
      expect(refuse(body, { ...headers, "webhook-signature": "v1," })).to.equal("INVALID_WEBHOOK_SIGNATURE");
      expect(refuse(body, { ...headers }, generateSecret())).to.equal("INVALID_WEBHOOK_SIGNATURE");
    });

    it("finds the valid one among several signatures, other versions ignored", () => {
      const noise = ["v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=", "v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc="];
      const mixed = { ...headers, "webhook-signature": [...noise, headers["webhook-signature"]].join(" ") };
      expect(verifyWebhook(secret, body, mixed, { nowSeconds: at })).to.equal("evt_7");
    });

    it("refuses secrets shorter than 24 or longer than 64 bytes, and message ids with a full stop", () => {
      expect(typeOfError(() => secretKey("whsec_" + Buffer.alloc(23).toString("base64")))).to.equal("INVALID_WEBHOOK_SECRET");
      expect(typeOfError(() => secretKey("whsec_" + Buffer.alloc(65).toString("base64")))).to.equal("INVALID_WEBHOOK_SECRET");
      expect(typeOfError(() => secretKey("whsec_not base64!"))).to.equal("INVALID_WEBHOOK_SECRET");
      expect(typeOfError(() => sign(secret, "evt.1", at, body))).to.equal("INVALID_WEBHOOK_SECRET");
    });

    it("never puts the secret in an error message", () => {
      const bad = "whsec_" + Buffer.alloc(10, 7).toString("base64");
      try {
        secretKey(bad);
      } catch (err) {
        expect(String((err as Error).message)).to.not.include(bad.slice(6));
        expect(JSON.stringify((err as { data?: unknown }).data)).to.not.include(bad.slice(6));
        return;
      }
      expect.fail("expected a refusal");
    });
  });
});
