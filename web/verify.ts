/**
 * The certificate page's script (docs/web-pages.md#live-updates). The page is rendered whole on the server; this only
 * follows its hash through the service's event stream while the page is open, and says in the page's live region
 * (`#live`) what changed since it was rendered:
 * - on a 404 page (nothing anchors the hash yet, or not in the link's transaction): the certificate landing
 *   (`certificate.anchored`), with a link to the page again;
 * - on a certificate page: one of its anchors rolled back (`certificate.rolled_back`, an alert), on chain again, or
 *   the hash anchored again by a transaction the page does not list.
 * `<body data-live>` names the latest: `anchored`, `rolled-back`, `on-chain-again`, `anchored-again`, `stopped`.
 *
 * What happened before the stream opened is not in it (a stream starts at the log's end), so each time it opens the
 * script reads `GET /api/v1/verify/{hash}` once and compares. No polling otherwise, and none when there is no stream
 * (no EventSource, 429 with too many streams from this address, 503 without the events service): the page is
 * complete without this script, which then leaves it as rendered. It follows only while the page is visible — a
 * browser speaking HTTP/1.1 to the service gives an origin six connections across all its tabs, and every stream holds
 * one — and stops after FOLLOW_FOR_MS, so a forgotten tab does not hold one of the gateway's streams for good.
 */
import type { EventData } from "../shared/events/event-types";
import { certificatesOf, isConfirmed } from "./api";
import { byId, el, meta } from "./dom";
import { followEvents, type EventFollowing } from "./event-source";

const FOLLOW_FOR_MS = 30 * 60_000;

const words = (name: string) =>
  meta(name)
    .split(" ")
    .filter((w) => w !== "");
const hash = meta("cert-anchor-hash");
/** the anchors the page was rendered from, and those heard of since */
const anchors = new Set(words("cert-anchor-anchors"));
/** on a 404 for `/verify/{hash}/{txHash}`: the transaction the page waits for */
const awaited = meta("cert-anchor-awaits");
const waiting = document.body.dataset["verification"] === "not-found";
const rolledBack = new Set<string>();
const live = byId("live");
let landed = false;
/** no more following: the certificate landed, the stream was refused, or FOLLOW_FOR_MS passed */
let stopped = false;
let stream: EventFollowing | undefined;

/** Puts one notice in the live region, which announces it; a rollback is an alert. */
function say(kind: string, ...content: Array<Node | string>): void {
  document.body.dataset["live"] = kind;
  live.replaceChildren(el("p", { class: `note live-note live-${kind}`, ...(kind === "rolled-back" ? { role: "alert" } : {}) }, ...content));
}
const mono = (text: string) => el("span", { class: "mono" }, text);
const reload = (text: string) => el("a", { href: location.href, class: "live-reload" }, text);

/**
 * Waits until the service's reads show `tx` (confirm's 200 means they all do: docs/decisions.md#read-your-writes), so
 * the page reloaded after it shows the certificate; the event may come a moment before the service's projections.
 */
const readable = (tx: string) => isConfirmed(tx).catch(() => false);

/** On a 404 page: the certificate landed in `tx`. */
async function landedIn(tx: string): Promise<void> {
  if (landed || (awaited !== "" && tx !== awaited)) return;
  landed = true;
  stop();
  await readable(tx);
  say("anchored", "Anchored just now, in transaction ", mono(tx), ". ", reload("Show the certificate"));
}

function rollback(tx: string): void {
  if (!anchors.has(tx) || rolledBack.has(tx)) return;
  rolledBack.add(tx);
  say(
    "rolled-back",
    "Rolled back: transaction ",
    mono(tx),
    ", which anchored this hash, is not on chain at the moment. The chain usually takes it again within a few blocks, and this page will say so; until then, do not rely on this anchor.",
  );
}

async function anchoredIn(tx: string): Promise<void> {
  if (rolledBack.delete(tx)) {
    if (rolledBack.size === 0) say("on-chain-again", "Transaction ", mono(tx), " is on chain again.");
    return;
  }
  if (anchors.has(tx)) return;
  anchors.add(tx);
  await readable(tx);
  say("anchored-again", "This hash was anchored again just now, in transaction ", mono(tx), ": ", reload("reload the page"), " to see it.");
}

/** What the service holds now, against what the page shows: catches up with what the stream started too late for. */
async function compare(): Promise<void> {
  const current = new Set((await certificatesOf(hash)).map((r) => r.transactionHash));
  if (waiting) {
    const tx = awaited !== "" ? (current.has(awaited) ? awaited : undefined) : [...current][0];
    if (tx !== undefined) await landedIn(tx);
    return;
  }
  for (const tx of anchors) if (!current.has(tx)) rollback(tx);
  for (const tx of current) await anchoredIn(tx);
}

function follow(): void {
  if (stopped || stream !== undefined) return;
  stream = followEvents(
    words("cert-anchor-subjects"),
    waiting ? ["certificate.anchored"] : ["certificate.anchored", "certificate.rolled_back"],
    {
      opened: () => void compare().catch(() => undefined),
      event: (e) => {
        const tx = (e.data as EventData["certificate.anchored" | "certificate.rolled_back"]).transactionHash;
        if (e.type === "certificate.rolled_back") rollback(tx);
        else if (waiting) void landedIn(tx);
        else void anchoredIn(tx);
      },
      failed: () => stop(),
    },
  );
}

function pause(): void {
  stream?.close();
  stream = undefined;
}

function stop(): void {
  stopped = true;
  pause();
}

document.addEventListener("visibilitychange", () => (document.hidden ? pause() : follow()));
if (!document.hidden) follow();
setTimeout(() => {
  if (stopped) return;
  stop();
  if (waiting)
    say("stopped", "This page stopped following the hash after 30 minutes: ", reload("reload it"), " to see whether it is anchored now.");
}, FOLLOW_FOR_MS);
