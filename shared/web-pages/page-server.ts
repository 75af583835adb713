/**
 * Serves the web pages next to the API on the gateway's HTTP server (docs/web-pages.md): `GET`/`HEAD` of `/`,
 * `/verify/{hash}[/{txHash}]`, the print view `/verify/{hash}/print`, the badge `/badge/{hash}.svg`, `/assets/*`, and
 * an HTML 404 for any other path outside `/api/`. Everything else
 * (every `/api/…` request, other methods) goes on to the API. Pages read certificates only through the action
 * behind the public `GET /api/v1/verify/{hash}`. Every page carries a Content-Security-Policy without inline script
 * or style, `Referrer-Policy: no-referrer` (verify links carry revealed values) and is gzipped when accepted.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { isShortCode } from "../domain/short-code";
import type { ChainPlace } from "../presentation/chain-place";
import { htmlDocument, markup } from "../presentation/html";
import type { CertificateRecord } from "../verifier/certificate-projection";
import { ASSET_PREFIX, type WebAssets } from "./assets";
import { renderHomePage } from "./home-page";
import { statusPage, type RenderedPage } from "./layout";
import { DataHash, TxHash } from "../domain/hex";
import { malformedPage, renderVerifyPage, type VerifyPageContext } from "./verify-page";
import { requestOrigin } from "../gateway/request-origin";
import { badgeSvg, type BadgeState } from "../presentation/badge";
import { renderPrintPage } from "./print-page";
import { OG_IMAGE_PREFIX, ogImage } from "./og-images";

export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Without the layout: the failure may be the assets' own. */
const INTERNAL_ERROR = htmlDocument({ head: markup`<title>Error</title>\n`, body: markup`<p>Internal error.</p>\n` });

export interface PageServerOptions {
  /** Every certificate of a hash, oldest first ([] when none). Throws when the verifier cannot answer. */
  lookup(hash: DataHash): Promise<CertificateRecord[]>;
  /** The short-link code bound to a hash (undefined when the hash has none of its own: the page then shows none). */
  shortCode(hash: DataHash): Promise<string | undefined>;
  assets(): Promise<WebAssets>;
  network: string;
  networkId: number;
  /** A public explorer's transaction page (`{tx}` for the id); null: the pages link no explorer. */
  explorerUrl: string | null;
  /** The service serves its own faucet (the devnet's unfunded wallets are pointed at it). */
  faucetEnabled: boolean;
  /**
   * The short-link page of a code, as `GET /api/v1/resolve/{code}` answers it. With it, a browser asking for a
   * short link (Accept: text/html) gets the house-style page for an unknown or malformed code.
   */
  resolveShortLink?(code: string, query: ReadonlyArray<[string, string]>): Promise<ShortLinkAnswer>;
  /** Base of short links (`<base>/<code>`). */
  shortLinkBase: string;
  /** Where unexpected failures are reported. */
  onError?(err: unknown): void;
  /** The clock (Unix ms): a certificate page follows its hash while the newest anchor is recent. Default `Date.now`. */
  now?(): number;
  /** Proxies of our own in front (TRUST_PROXY): their `X-Forwarded-Proto` names the scheme of the pages' absolute links. */
  trustProxy?: number;
  /**
   * Counts a request that looks a hash up against its client's read budget (RATE_LIMIT_READ_PER_MINUTE, shared with
   * the API's `/verify` and `/proof`): the seconds to wait when the budget is spent, else undefined.
   */
  readBudget?(req: IncomingMessage, res: ServerResponse): number | undefined;
}

/** What `GET /api/v1/resolve/{code}` answers: the redirecting page with its own policy, or 404 for an unknown code. */
export interface ShortLinkAnswer {
  status: number;
  html: string;
  contentSecurityPolicy: string;
  headers: Readonly<Record<string, string>>;
}

/** Where the short links resolve (`GET /api/v1/resolve/{code}`). */
const RESOLVE_PREFIX = "/api/v1/resolve/";

/** A browser navigating (Accept names text/html), not an API client asking for JSON. */
const wantsHtml = (req: IncomingMessage) => /\btext\/html\b/.test(String(req.headers.accept ?? ""));

/** Returns a request handler that answers page requests and returns false for everything else. */
export function createPageHandler(opts: PageServerOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = new URL(req.url ?? "/", "http://page.invalid");
    const path = url.pathname;
    const shortLink = opts.resolveShortLink !== undefined && path.startsWith(RESOLVE_PREFIX) && wantsHtml(req);
    if (!shortLink && (path === "/api" || path.startsWith("/api/"))) return false;
    const answered = shortLink
      ? answerShortLink(opts, req, res, path.slice(RESOLVE_PREFIX.length), url.searchParams)
      : answer(opts, req, res, path, url.searchParams);
    answered.catch((err: unknown) => {
      opts.onError?.(err);
      if (!res.headersSent) send(req, res, { status: 500, html: INTERNAL_ERROR });
      else res.end();
    });
    return true;
  };
}

async function answer(opts: PageServerOptions, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
  const assets = await opts.assets();
  if (path.startsWith(ASSET_PREFIX)) {
    const file = assets.files.get(path.slice(ASSET_PREFIX.length));
    if (file === undefined) return send(req, res, notFound(assets, opts.network));
    const gz = acceptsGzip(req);
    res.writeHead(200, {
      "Content-Type": file.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      Vary: "Accept-Encoding",
      ...(gz ? { "Content-Encoding": "gzip" } : {}),
      "Content-Length": (gz ? file.gzip : file.body).length,
    });
    res.end(req.method === "HEAD" ? undefined : gz ? file.gzip : file.body);
    return;
  }
  if (path.startsWith(OG_IMAGE_PREFIX)) {
    const image = ogImage(path.slice(OG_IMAGE_PREFIX.length));
    if (image === undefined) return send(req, res, notFound(assets, opts.network));
    res.writeHead(200, {
      "Content-Type": "image/png",
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Content-Length": image.length,
    });
    res.end(req.method === "HEAD" ? undefined : image);
    return;
  }
  const ctx = {
    assets: assets.urls,
    shortLinkBase: opts.shortLinkBase,
    now: opts.now?.() ?? Date.now(),
    origin: requestOrigin(req, opts.trustProxy ?? 0),
    chain: chainPlaceOf(opts),
  };
  if (path === "/") {
    return send(req, res, {
      status: 200,
      html: renderHomePage({ ...ctx, network: opts.network, networkId: opts.networkId }),
    });
  }
  // ── sharing: the badge and the print view (docs/web-pages.md#sharing) ──
  const badge = /^\/badge\/([^/]*)\.svg$/.exec(path);
  if (badge !== null) return answerBadge(opts, req, res, badge[1]!);
  const print = /^\/verify\/([^/]*)\/print\/?$/.exec(path);
  if (print !== null) return answerPrint(opts, req, res, ctx, print[1]!, query);
  // ── the certificate page ──
  const verify = /^\/verify(?:\/([^/]*))?(?:\/([^/]*))?\/?$/.exec(path);
  if (verify === null) return send(req, res, notFound(assets, opts.network));
  const [, givenHash = "", givenTxHash] = verify;
  const hash = DataHash.parse(givenHash);
  if (hash === undefined)
    return send(
      req,
      res,
      malformedPage(ctx, "A certificate address is /verify/<hash>: the hash is even-length hex of at most 128 digits."),
    );
  const txHash = givenTxHash === undefined ? undefined : TxHash.parse(givenTxHash);
  if (givenTxHash !== undefined && txHash === undefined)
    return send(req, res, malformedPage(ctx, "A certificate address is /verify/<hash>/<transaction>: the transaction is 64 hex digits."));
  if (refusedForBudget(opts, req, res, assets)) return;
  let records: CertificateRecord[];
  try {
    records = await opts.lookup(hash);
  } catch (err) {
    opts.onError?.(err);
    return send(req, res, unavailable(assets, opts.network), { "Retry-After": "5" });
  }
  // Only a code bound to this hash is shown; when the verifier cannot say, the page shows none.
  const shortCode =
    records.length > 0
      ? await opts.shortCode(hash).catch((err: unknown) => {
          opts.onError?.(err);
          return undefined;
        })
      : undefined;
  return send(
    req,
    res,
    renderVerifyPage(ctx, {
      hash,
      ...(txHash !== undefined ? { txHash } : {}),
      records,
      query: [...query.entries()],
      ...(shortCode !== undefined ? { shortCode } : {}),
    }),
  );
}

// ── sharing ──

/** The badge is an image other sites embed: cached briefly (a rollback can take its anchor), and no page policy. */
const BADGE_MAX_AGE_SECONDS = 60;

async function answerBadge(opts: PageServerOptions, req: IncomingMessage, res: ServerResponse, givenHash: string): Promise<void> {
  const hash = DataHash.parse(givenHash);
  if (hash === undefined) {
    const body = JSON.stringify({
      error: "INVALID_HASH",
      message: "A badge address is /badge/<hash>.svg: the hash is even-length hex of at most 128 digits.",
    });
    res.writeHead(400, {
      "Content-Type": "application/json; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
      "Content-Length": Buffer.byteLength(body),
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return;
  }
  const waitSeconds = opts.readBudget?.(req, res);
  let state: BadgeState = "unavailable";
  if (waitSeconds === undefined) {
    try {
      state = (await opts.lookup(hash)).length > 0 ? "verified" : "not-found";
    } catch (err) {
      opts.onError?.(err);
    }
  }
  const body = Buffer.from(badgeSvg(state), "utf8");
  const gz = acceptsGzip(req);
  const payload = gz ? gzipSync(body) : body;
  res.writeHead(waitSeconds !== undefined ? 429 : state === "unavailable" ? 503 : 200, {
    "Content-Type": "image/svg+xml; charset=utf-8",
    "Content-Security-Policy": "default-src 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Cache-Control": state === "unavailable" ? "no-store" : `public, max-age=${BADGE_MAX_AGE_SECONDS}`,
    Vary: "Accept-Encoding",
    ...(gz ? { "Content-Encoding": "gzip" } : {}),
    ...(state === "unavailable" ? { "Retry-After": String(waitSeconds ?? 5) } : {}),
    "Content-Length": String(payload.length),
  });
  res.end(req.method === "HEAD" ? undefined : payload);
}

async function answerPrint(
  opts: PageServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  ctx: VerifyPageContext,
  givenHash: string,
  query: URLSearchParams,
): Promise<void> {
  const hash = DataHash.parse(givenHash);
  if (hash === undefined)
    return send(
      req,
      res,
      malformedPage(ctx, "A print view's address is /verify/<hash>/print: the hash is even-length hex of at most 128 digits."),
    );
  if (refusedForBudget(opts, req, res, await opts.assets())) return;
  let records: CertificateRecord[];
  try {
    records = await opts.lookup(hash);
  } catch (err) {
    opts.onError?.(err);
    return send(req, res, unavailable(await opts.assets(), opts.network), { "Retry-After": "5" });
  }
  // Nothing to print: the certificate page's own 404, which follows the hash.
  if (records.length === 0) return send(req, res, renderVerifyPage(ctx, { hash, records, query: [...query.entries()] }));
  const shortCode = await opts.shortCode(hash).catch((err: unknown) => {
    opts.onError?.(err);
    return undefined;
  });
  return send(
    req,
    res,
    renderPrintPage(
      { ...ctx, network: opts.network },
      { hash, records, query: [...query.entries()], ...(shortCode !== undefined ? { shortCode } : {}) },
    ),
  );
}

const chainPlaceOf = (opts: PageServerOptions): ChainPlace => ({
  network: opts.network,
  explorerUrl: opts.explorerUrl,
  faucetEnabled: opts.faucetEnabled,
});

// ── short links in the house style: a browser's unknown or malformed code gets a page of the site ──────────────
/**
 * `GET /api/v1/resolve/{code}` for a browser: a malformed code's 400 and an unknown code's 404 as pages of the site
 * (API clients asking JSON never come here: they get the API's JSON). A known code's page — its link-preview tags
 * and redirect, under its own Content-Security-Policy — is passed on as the API answers it.
 */
async function answerShortLink(opts: PageServerOptions, req: IncomingMessage, res: ServerResponse, code: string, query: URLSearchParams) {
  const assets = await opts.assets();
  const linkPage = (status: number, title: string, reason: string, sentence: string): RenderedPage =>
    statusPage({
      status,
      title,
      assets: assets.urls,
      role: "status",
      network: opts.network,
      data: { "short-link": reason },
      body: markup`<p>${sentence}</p>
<p><a class="button" href="/">Check a file or a text</a></p>
`,
    });
  if (!isShortCode(code))
    return send(
      req,
      res,
      linkPage(
        400,
        "Not a short link",
        "malformed",
        `“${code}” is not a short-link code: a code is 10 letters and digits (0-9, A-Z, a-z).`,
      ),
    );
  let answered: ShortLinkAnswer;
  try {
    answered = await opts.resolveShortLink!(code, [...query.entries()]);
  } catch (err) {
    opts.onError?.(err);
    return send(req, res, unavailable(assets, opts.network), { "Retry-After": "5" });
  }
  if (answered.status === 404)
    return send(
      req,
      res,
      linkPage(404, "Unknown link", "unknown", `The link ${code} does not point to a certificate. Check that it was copied whole.`),
    );
  send(
    req,
    res,
    { status: answered.status, html: answered.html },
    { ...answered.headers, "Content-Security-Policy": answered.contentSecurityPolicy },
  );
}
// ── end of short links in the house style ──────────────────────────────────────────────────────────────────────

const notFound = (assets: WebAssets, network: string): RenderedPage =>
  statusPage({
    status: 404,
    title: "Page not found",
    assets: assets.urls,
    network,
    body: markup`<p><a class="button" href="/">Go to the verifier</a></p>\n`,
  });

const unavailable = (assets: WebAssets, network: string): RenderedPage =>
  statusPage({
    status: 503,
    title: "Temporarily unavailable",
    assets: assets.urls,
    network,
    role: "alert",
    body: markup`<p>The certificate service does not answer right now. Retry in a few seconds.</p>\n`,
  });

/** Counts a page that looks a hash up against the client's read budget; answers the 429 page when it is spent. */
function refusedForBudget(opts: PageServerOptions, req: IncomingMessage, res: ServerResponse, assets: WebAssets): boolean {
  const waitSeconds = opts.readBudget?.(req, res);
  if (waitSeconds === undefined) return false;
  send(
    req,
    res,
    statusPage({
      status: 429,
      title: "Too many lookups",
      assets: assets.urls,
      network: opts.network,
      role: "alert",
      body: markup`<p>This address looked up more certificates in the last minute than the service answers. Retry in ${String(waitSeconds)} seconds.</p>\n`,
    }),
    { "Retry-After": String(waitSeconds) },
  );
  return true;
}

const acceptsGzip = (req: IncomingMessage) => /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));

function send(req: IncomingMessage, res: ServerResponse, pageOut: RenderedPage, extra: Record<string, string> = {}): void {
  const body = Buffer.from(pageOut.html, "utf8");
  const gz = acceptsGzip(req);
  const payload = gz ? gzipSync(body) : body;
  res.writeHead(pageOut.status, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": PAGE_CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
    Vary: "Accept-Encoding",
    ...(gz ? { "Content-Encoding": "gzip" } : {}),
    "Content-Length": String(payload.length),
    ...extra,
  });
  res.end(req.method === "HEAD" ? undefined : payload);
}

/** Puts the page handler in front of the server's request listeners (moleculer-web's), which get the rest. */
export function attachPageHandler(server: Server, handle: (req: IncomingMessage, res: ServerResponse) => boolean): void {
  const listeners = server.listeners("request") as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (handle(req, res)) return;
    for (const l of listeners) l.call(server, req, res);
  });
}
