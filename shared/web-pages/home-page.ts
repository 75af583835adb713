/**
 * The home page `/` (docs/web-pages.md#the-home-page): the static form its script (web/app.ts) brings to life —
 * files and texts hashed in the browser, looked up, and issued with a CIP-30 wallet through the public API; and
 * transparency-log proofs of those files checked in the browser.
 * The page hands its script the service's network in <meta> tags (no inline script); short links come from the API.
 */
import { browseUri } from "../domain/cardano-uri";
import { faucetOf, networkLabel, type ChainPlace } from "../presentation/chain-place";
import { markup, type SafeHtml } from "../presentation/html";
import { qrCodeSvg } from "../presentation/qr-code";
import { page, type PageAssets } from "./layout";

export interface HomePageContext {
  assets: PageAssets;
  /** Cardano network id the wallet must be on (0 test networks, 1 mainnet). */
  networkId: number;
  network: string;
  /** The network's explorer and faucet, for the issue flow's links. */
  chain: ChainPlace;
  // ── the wallet-app link (CIP-158) ──
  /** `<scheme>://<host>` the page was reached on: the address a wallet app opens. */
  origin: string;
}

export function renderHomePage(ctx: HomePageContext): string {
  return page({
    title: "Verify or issue certificates",
    assets: ctx.assets,
    script: ctx.assets.js,
    network: ctx.network,
    data: { page: "home" },
    meta: {
      "cert-anchor-network": ctx.network,
      "cert-anchor-network-id": String(ctx.networkId),
      ...chainMeta(ctx.chain),
    },
    main: markup`<section class="intro">
<h1>Verify or issue certificates</h1>
<p>Files and texts are hashed in your browser and never uploaded: only their hashes are looked up, and anchored when you issue.</p>
<noscript><p class="note">This page needs JavaScript to hash files in your browser. Certificate pages (<code>/verify/…</code>) work without it.</p></noscript>
</section>
<section class="panel" aria-labelledby="add-heading">
<h2 id="add-heading">1. Add files or a text</h2>
<div class="drop" id="drop-zone">
<label for="file-input">Drop files here (with their <code>.tlog-proof</code> receipts, if you have them), or choose them</label>
<input type="file" id="file-input" multiple>
</div>
<label for="text-input">Or paste a text (hashed as UTF-8)</label>
<textarea id="text-input" rows="3"></textarea>
<div class="row"><button type="button" id="add-text">Add text</button>
<label class="inline" for="algorithm">Hash algorithm</label>
<select id="algorithm"><option value="SHA-256">SHA-256</option><option value="SHA-512">SHA-512</option></select></div>
<label for="hash-input">Or look up a hash you already have (hex)</label>
<div class="row"><input id="hash-input" class="mono" autocomplete="off" spellcheck="false" aria-describedby="hash-error"><button type="button" id="lookup-hash">Look up</button></div>
<p id="hash-error" class="field-error" role="alert" hidden></p>
</section>
<section class="panel" aria-labelledby="items-heading">
<h2 id="items-heading">2. Hashes</h2>
<p id="items-empty" class="muted">Nothing added yet.</p>
<ul id="items" class="items" aria-live="polite"></ul>
</section>
<section class="panel" aria-labelledby="proofs-heading">
<h2 id="proofs-heading">Check a transparency-log proof</h2>
<p class="muted">A receipt's proof (a <code>.tlog-proof</code> file) shows that a document's hash is in this service's transparency log. Drop it with its document above, or choose it here: it is checked in your browser against the log's public key, and nothing is uploaded.</p>
<label for="proof-input">Choose .tlog-proof files</label>
<input type="file" id="proof-input" accept=".tlog-proof" multiple>
<p id="proofs-empty" class="muted">No proof added.</p>
<ul id="proofs" class="items" aria-live="polite"></ul>
</section>
<section class="panel" aria-labelledby="issue-heading">
<h2 id="issue-heading">3. Issue certificates with your wallet</h2>
<p class="muted">Issuing anchors the hashes that have no certificate yet on <strong data-field="network">${networkLabel(ctx.network)}</strong>, in one transaction your CIP-30 wallet signs.</p>
<div id="wallets" class="row"></div>
<p id="wallet-status" role="status"></p>
${walletAppLink(ctx.origin)}<label for="metadata">Metadata for the new certificates (optional JSON object, e.g. {"title": "Contract v2"})</label>
<textarea id="metadata" rows="3" class="mono" spellcheck="false"></textarea>
<button type="button" id="issue" class="primary" disabled>Issue certificates</button>
<ol id="progress" class="progress" aria-live="polite"></ol>
${faucetBox(ctx.chain)}
<div id="results" aria-live="polite"></div>
</section>
`,
  });
}

// ── where the chain is: what the issue flow's script needs to name the network, link the explorer and the faucet ──
function chainMeta(chain: ChainPlace): Record<string, string> {
  const faucet = faucetOf(chain);
  return {
    "cert-anchor-network-label": networkLabel(chain.network),
    "cert-anchor-explorer": chain.explorerUrl ?? "",
    "cert-anchor-faucet": faucet?.kind ?? "",
    "cert-anchor-faucet-url": faucet?.kind === "page" ? faucet.url : "",
    "cert-anchor-faucet-label": faucet?.label ?? "",
  };
}

/** The devnet's faucet button, shown by the script once the wallet turns out to hold too little ADA. */
function faucetBox(chain: ChainPlace): SafeHtml | "" {
  return faucetOf(chain)?.kind === "service"
    ? markup`<div id="faucet-box" class="faucet" hidden>
<button type="button" id="faucet">Get test ADA from this devnet's faucet</button>
<p id="faucet-status" role="status"></p>
</div>
`
    : "";
}
// ── end of where the chain is ──────────────────────────────────────────────────────────────────────────────────

// ── the wallet-app link (CIP-158) ──

/**
 * Issuing needs a CIP-30 wallet in the browser, which a phone's browser lacks: a CIP-158 `browse` link opens this
 * page inside a wallet app's own browser (a tap on the phone, or its QR code scanned from a computer).
 */
function walletAppLink(origin: string): SafeHtml {
  const link = browseUri(`${origin}/`);
  return markup`<details class="wallet-app" id="wallet-app">
<summary>No wallet extension here? Open this page in a Cardano wallet app</summary>
<p>Wallet apps that support <code>web+cardano://browse</code> links (CIP-158) open this page in their own browser, where they can sign: <a href="${link}" id="wallet-app-link">open in a wallet app</a>, or scan this code with your phone.</p>
<figure class="wallet-app-qr">${qrCodeSvg(link, "QR code: this page, to open in a Cardano wallet app")}</figure>
</details>
`;
}
