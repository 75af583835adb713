/** Answers of the webhook routes (docs/webhooks.md#the-routes): an endpoint, its registration, dead letters, replays. */
import { HEX, integer, object, ref, string, type Schema } from "./shapes";

const ENDPOINT_ID = "^ep_[0-9a-f]{32}$";
const EVENT_ID = "^(0|[1-9][0-9]*)$";
const strings = { type: "array", items: string };

export const WEBHOOK_SCHEMAS = {
  /** An endpoint as its token's holder sees it: never its secret. Times are Unix ms. */
  WebhookEndpoint: object(
    {
      id: { type: "string", pattern: ENDPOINT_ID },
      url: string,
      description: string,
      subjects: strings,
      types: strings,
      status: { type: "string", enum: ["active", "disabled"] },
      disabledAt: integer,
      disabledReason: { type: "string", enum: ["FAILED_DELIVERIES", "GONE"] },
      consecutiveFailures: integer,
      cursor: { type: "string", pattern: EVENT_ID },
      createdAt: integer,
      updatedAt: integer,
      secretCreatedAt: integer,
    },
    ["id", "url", "subjects", "types", "status", "consecutiveFailures", "createdAt", "updatedAt", "secretCreatedAt"],
  ),
  /** A registration: the endpoint, its signing secret and (when the registration made one) its management token, each shown this once. */
  WebhookRegistration: {
    allOf: [
      ref("WebhookEndpoint"),
      object(
        {
          secret: { type: "string", pattern: "^whsec_[A-Za-z0-9+/]+={0,2}$" },
          managementToken: { type: "string", pattern: "^whm_[A-Za-z0-9_-]{43}$" },
        },
        ["secret"],
      ),
    ],
  },
  WebhookList: object({ endpoints: { type: "array", items: ref("WebhookEndpoint") } }),
  WebhookChallenge: object({
    address: string,
    url: string,
    timestamp: integer,
    message: string,
    signature: { type: "string", pattern: HEX },
  }),
  WebhookDeleted: object({ id: { type: "string", pattern: ENDPOINT_ID }, deleted: { type: "boolean", enum: [true] } }),
  WebhookSecret: object({
    id: { type: "string", pattern: ENDPOINT_ID },
    secret: { type: "string", pattern: "^whsec_[A-Za-z0-9+/]+={0,2}$" },
    previousSecretValidUntil: integer,
  }),
  WebhookDeadLetters: object(
    {
      items: {
        type: "array",
        items: object(
          {
            id: string,
            eventId: { type: "string", pattern: EVENT_ID },
            eventType: string,
            messageId: string,
            attempts: integer,
            failedAt: integer,
            lastAttemptAt: integer,
            lastStatus: integer,
            lastFailure: string,
            lastMessage: string,
            lastResponse: string,
            replay: integer,
          },
          ["id", "eventId", "eventType", "messageId", "attempts"],
        ),
      },
      next: string,
    },
    ["items"],
  ),
  WebhookReplay: object({ replay: integer, enqueued: integer, scanned: integer, continueFrom: { type: "string", pattern: EVENT_ID } }, [
    "replay",
    "enqueued",
    "scanned",
  ]),
} satisfies Record<string, Schema>;
