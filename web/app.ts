/**
 * The home page's script (docs/web-pages.md#the-home-page): hash dropped files and pasted texts in the browser,
 * look the hashes up, issue certificates for new ones with a CIP-30 wallet (the transaction followed through the
 * service's event stream: web/issue.ts), and check transparency-log proofs (`.tlog-proof` files) of the documents in
 * the browser (web/proof-check.ts). Reads and writes only the public API; builds every node with text content
 * (web/dom.ts).
 */
import { certificatesOf, faucetClaim, faucetRequest, isConfirmed, shortLinkOf, type CertificateRecord } from "./api";
import { addressToBech32 } from "./bech32";
import { installedWallets, walletErrorMessage, type Cip30Api, type Cip30Wallet } from "./cip30";
import { byId, clear, el, meta } from "./dom";
import { canHash, hashHex, utf8, type Algorithm } from "./hashing";
import { issueCertificates, type StepState } from "./issue";
import { hasServiceFaucet, networkName, SaidError, transactionSaid, WORDS, type Said } from "./issue-words";
import { addProof, isTlogProof, setProofDocuments } from "./proof-check";

interface Item {
  label: string;
  bytes?: Uint8Array<ArrayBuffer>;
  hash?: string;
  algorithm: string;
  state: "hashing" | "checking" | "certified" | "new" | "error";
  records?: CertificateRecord[];
  /** A pasted text (hashed as UTF-8): its trailing-whitespace variants are looked up when it has no certificate. */
  text?: string;
  /** A certified text that differs from this one only in trailing whitespace. */
  near?: { hash: string };
  error?: string;
  node: HTMLLIElement;
}

const items: Item[] = [];
/** The connected wallet: its API, its change address in bech32 (for the API) and as CIP-30 hex (for signData). */
let wallet: { api: Cip30Api; address: string; addressHex: string; name: string } | undefined;
let issuing = false;

const algorithmSelect = byId<HTMLSelectElement>("algorithm");
const list = byId<HTMLUListElement>("items");
const issueButton = byId<HTMLButtonElement>("issue");

function algorithm(): Algorithm {
  return algorithmSelect.value === "SHA-512" ? "SHA-512" : "SHA-256";
}

function renderItem(item: Item): void {
  item.node.dataset["state"] = item.state;
  if (item.hash !== undefined) item.node.dataset["hash"] = item.hash;
  let status: Node;
  switch (item.state) {
    case "hashing":
      status = el("span", { class: "muted" }, "Hashing…");
      break;
    case "checking":
      status = el("span", { class: "muted" }, "Looking it up…");
      break;
    case "certified": {
      const n = item.records?.length ?? 0;
      status = el(
        "span",
        {},
        el("span", { class: "badge ok" }, "✓ Certified"),
        ` anchored ${n === 1 ? "once" : `${n} times`} · `,
        el("a", { href: `/verify/${item.hash ?? ""}`, class: "certificate-link" }, "View certificate"),
      );
      break;
    }
    case "new":
      status =
        item.near !== undefined
          ? el(
              "span",
              { class: "near", "data-near": "trailing-whitespace" },
              el("span", { class: "badge warn" }, "No certificate for this exact text"),
              " — a text that differs from it only in trailing whitespace (spaces or line breaks at its end) is certified: ",
              el("a", { href: `/verify/${item.near.hash}`, class: "near-link" }, "view that certificate"),
              ". Check which of the two is the original.",
            )
          : el("span", {}, el("span", { class: "badge" }, "No certificate yet"), " — you can issue one below");
      break;
    case "error":
      status = el("span", { class: "badge bad" }, item.error ?? "Failed");
      break;
  }
  const remove = el("button", { type: "button", class: "link", "aria-label": `Remove ${item.label}` }, "Remove");
  remove.addEventListener("click", () => {
    items.splice(items.indexOf(item), 1);
    item.node.remove();
    refreshControls();
  });
  item.node.replaceChildren(
    el("div", { class: "item-head" }, el("strong", {}, item.label), remove),
    el("div", { class: "mono hash" }, item.hash !== undefined ? `${item.algorithm} ${item.hash}` : item.algorithm),
    el("div", { class: "item-status" }, status),
  );
  refreshControls();
}

async function lookUp(item: Item): Promise<void> {
  item.state = "checking";
  renderItem(item);
  try {
    item.records = await certificatesOf(item.hash ?? "");
    item.state = item.records.length > 0 ? "certified" : "new";
    if (item.state === "new") await findNearText(item);
  } catch (err) {
    item.state = "error";
    item.error = `Lookup failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  renderItem(item);
}

// ── trailing whitespace: a text that differs from a certified one only at its end is flagged as such ────────────
/** The same text with other trailing whitespace: none, one line break (Unix or Windows). */
function trailingVariants(text: string): string[] {
  const bare = text.replace(/\s+$/u, "");
  return [bare, `${bare}\n`, `${bare}\r\n`].filter((v, i, all) => v !== text && all.indexOf(v) === i);
}

/** Looks up the text's trailing-whitespace variants; notes the first that is certified. */
async function findNearText(item: Item): Promise<void> {
  item.near = undefined;
  if (item.text === undefined || !canHash()) return;
  for (const variant of trailingVariants(item.text)) {
    const hash = await hashHex(utf8(variant), item.algorithm as Algorithm);
    if ((await certificatesOf(hash).catch(() => [])).length > 0) {
      item.near = { hash };
      return;
    }
  }
}
// ── end of trailing whitespace ─────────────────────────────────────────────────────────────────────────────────

async function hashItem(item: Item): Promise<void> {
  if (item.bytes === undefined) return;
  if (!canHash()) {
    item.state = "error";
    item.error = "Hashing needs a secure context: open this page over https:// or on localhost.";
    renderItem(item);
    return;
  }
  item.state = "hashing";
  item.algorithm = algorithm();
  renderItem(item);
  item.hash = await hashHex(item.bytes, item.algorithm as Algorithm);
  await lookUp(item);
}

function newItem(label: string, algorithmName: string): Item {
  const item: Item = { label, algorithm: algorithmName, state: "hashing", node: el("li", { class: "item" }) };
  items.push(item);
  list.append(item.node);
  return item;
}

function addBytes(label: string, bytes: Uint8Array<ArrayBuffer>, text?: string): void {
  const item = newItem(label, algorithm());
  item.bytes = bytes;
  if (text !== undefined) item.text = text;
  void hashItem(item);
}

/** Adds dropped or chosen files: documents are hashed, transparency-log proofs go to the proof check. */
async function addFiles(files: FileList | null): Promise<void> {
  for (const file of Array.from(files ?? [])) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (isTlogProof(bytes)) addProof(file.name, bytes);
    else addBytes(file.name, bytes);
  }
}

function refreshControls(): void {
  byId("items-empty").hidden = items.length > 0;
  setProofDocuments(
    items.filter((i) => i.algorithm === "SHA-256" && i.hash !== undefined).map((i) => ({ label: i.label, hash: i.hash ?? "" })),
  );
  const fresh = items.filter((i) => i.state === "new");
  issueButton.disabled = issuing || wallet === undefined || fresh.length === 0;
  issueButton.textContent = fresh.length > 1 ? `Issue ${fresh.length} certificates` : "Issue certificate";
}

// ── adding ─────────────────────────────────────────────────────────────────────────────────────────────
const fileInput = byId<HTMLInputElement>("file-input");
fileInput.addEventListener("change", () => {
  void addFiles(fileInput.files).then(() => (fileInput.value = ""));
});
const dropZone = byId("drop-zone");
dropZone.addEventListener("dragover", (e) => {
  e.preventDefault();
  dropZone.classList.add("over");
});
dropZone.addEventListener("dragleave", () => dropZone.classList.remove("over"));
dropZone.addEventListener("drop", (e) => {
  e.preventDefault();
  dropZone.classList.remove("over");
  void addFiles(e.dataTransfer?.files ?? null);
});
const proofInput = byId<HTMLInputElement>("proof-input");
proofInput.addEventListener("change", () => {
  void Promise.all(Array.from(proofInput.files ?? [], async (f) => addProof(f.name, new Uint8Array(await f.arrayBuffer())))).then(
    () => (proofInput.value = ""),
  );
});
byId("add-text").addEventListener("click", () => {
  const area = byId<HTMLTextAreaElement>("text-input");
  if (area.value === "") return;
  const preview = area.value.length > 40 ? `${area.value.slice(0, 40)}…` : area.value;
  addBytes(`Text “${preview}”`, utf8(area.value), area.value);
  area.value = "";
});
const hashError = byId("hash-error");
/** Why a typed hash cannot be looked up, or undefined when it can. */
function hashProblem(hash: string): string | undefined {
  if (hash === "") return "Type or paste a hash first.";
  if (!/^[0-9a-f]*$/.test(hash)) return "A hash is written in hex: only the digits 0-9 and the letters a-f.";
  if (hash.length % 2 !== 0 || hash.length > 128)
    return `A hash has an even number of hex digits, at most 128 (64 for SHA-256, 128 for SHA-512); this one has ${hash.length}.`;
  return undefined;
}
byId("lookup-hash").addEventListener("click", () => {
  const input = byId<HTMLInputElement>("hash-input");
  const hash = input.value.trim().toLowerCase();
  const problem = hashProblem(hash);
  hashError.hidden = problem === undefined;
  hashError.textContent = problem ?? "";
  if (problem !== undefined) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return;
  }
  input.removeAttribute("aria-invalid");
  input.value = "";
  const item = newItem(`Hash ${hash.slice(0, 12)}…`, hash.length === 64 ? "SHA-256" : hash.length === 128 ? "SHA-512" : "hash");
  item.hash = hash;
  void lookUp(item);
});
algorithmSelect.addEventListener("change", () => {
  for (const item of items) if (item.bytes !== undefined) void hashItem(item);
});

// ── wallet ─────────────────────────────────────────────────────────────────────────────────────────────
const walletStatus = byId("wallet-status");

function renderWallets(): void {
  const box = byId("wallets");
  const found = installedWallets();
  clear(box);
  if (found.length === 0) {
    box.append(el("p", { class: "muted" }, "No CIP-30 wallet found in this browser (Eternl, Lace, Typhon, …)."));
    return;
  }
  for (const w of found) {
    const b = el("button", { type: "button", "data-wallet": w.id }, wallet?.name === w.name ? `Connected: ${w.name}` : `Connect ${w.name}`);
    b.addEventListener("click", () => void connect(w));
    box.append(b);
  }
}

async function connect(w: Cip30Wallet): Promise<void> {
  walletStatus.textContent = `Connecting to ${w.name}…`;
  try {
    const api = await w.enable();
    const expected = Number(meta("cert-anchor-network-id"));
    const networkId = await api.getNetworkId();
    if (networkId !== expected) {
      walletStatus.textContent = `${w.name} is on network ${networkId}; this service runs on ${meta("cert-anchor-network")} (network ${expected}). Switch the wallet's network.`;
      return;
    }
    const addressHex = await api.getChangeAddress();
    const address = addressToBech32(addressHex);
    wallet = { api, address, addressHex, name: w.name };
    walletStatus.textContent = `Connected to ${w.name}: ${address}`;
    walletStatus.dataset["address"] = address;
  } catch (err) {
    walletStatus.textContent = `Could not connect to ${w.name}: ${walletErrorMessage(err)}`;
  }
  renderWallets();
  refreshControls();
}

// ── issuing ────────────────────────────────────────────────────────────────────────────────────────────
const progressList = byId<HTMLOListElement>("progress");
const results = byId("results");

/** The certificate transaction of the last issue, followed until it is final or the next issue starts. */
let following: AbortController | undefined;

const progress = {
  step(id: string, text: Said, state: StepState, data: Readonly<Record<string, string>> = {}): void {
    let li = progressList.querySelector<HTMLLIElement>(`li[data-step="${id}"]`);
    if (li === null) {
      li = el("li", { "data-step": id });
      progressList.append(li);
    }
    li.dataset["state"] = state;
    for (const [name, value] of Object.entries(data)) li.dataset[name] = value;
    li.replaceChildren(...saidNodes(text));
  },
};

/** A sentence as nodes: text as text, links as links (their targets come from the page's own <meta> tags). */
function saidNodes(said: Said): Array<Node | string> {
  if (typeof said === "string") return [said];
  return said.map((part) => (typeof part === "string" ? part : el("a", { href: part.href, rel: "noopener noreferrer" }, part.text)));
}

function metadataText(): string | undefined {
  const raw = byId<HTMLTextAreaElement>("metadata").value.trim();
  if (raw === "") return undefined;
  const parsed: unknown = JSON.parse(raw);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("The metadata must be a JSON object.");
  return JSON.stringify(parsed);
}

/** The issued hashes' links; `shortLinks[i]` is the short link of `issued[i]` when the service has one bound to it. */
function showResults(txHash: string, issued: Item[], shortLinks: ReadonlyArray<string | undefined>): void {
  results.replaceChildren(
    el("h3", {}, "Issued"),
    el("p", { "data-field": "issued-on" }, `On ${networkName()}, in transaction `, ...saidNodes(transactionSaid(txHash))),
    el(
      "ul",
      { class: "results" },
      ...issued.map((item, i) => {
        const hash = item.hash ?? "";
        const verify = `${location.origin}/verify/${hash}/${txHash}`;
        const short = shortLinks[i];
        return el(
          "li",
          { "data-hash": hash },
          el("strong", {}, item.label),
          el("div", {}, "Verification link: ", el("a", { href: verify, class: "verify-link mono" }, verify)),
          short !== undefined ? el("div", {}, "Short link: ", el("a", { href: short, class: "short-link mono" }, short)) : null,
        );
      }),
    ),
  );
}

issueButton.addEventListener("click", () => {
  if (wallet === undefined || issuing) return;
  const fresh = items.filter((i) => i.state === "new" && i.hash !== undefined);
  let metadata: string | undefined;
  try {
    metadata = metadataText();
  } catch (err) {
    walletStatus.textContent = `Metadata: ${err instanceof Error ? err.message : String(err)}`;
    return;
  }
  const certificates = fresh.map((i) => ({
    hash: i.hash ?? "",
    algorithm: i.algorithm,
    ...(metadata !== undefined ? { metadata } : {}),
  }));
  issuing = true;
  document.body.dataset["issue"] = "working";
  const faucetBox = document.getElementById("faucet-box");
  if (faucetBox !== null) faucetBox.hidden = true;
  clear(progressList);
  clear(results);
  refreshControls();
  const { api, address } = wallet;
  following?.abort();
  following = new AbortController();
  issueCertificates(api, address, certificates, progress, following.signal)
    .then(
      async (txHash) => {
        // A short link only when the service says its code leads to this hash (an earlier hash may hold the code).
        const shortLinks = await Promise.all(fresh.map((i) => shortLinkOf(i.hash ?? "").catch(() => undefined)));
        document.body.dataset["issue"] = "done";
        showResults(txHash, fresh, shortLinks);
        await Promise.all(fresh.map((i) => lookUp(i)));
      },
      (err: unknown) => {
        document.body.dataset["issue"] = "failed";
        // A failure its step already explains is not said twice.
        if (!(err instanceof SaidError))
          progress.step("error", `Not issued: ${err instanceof Error ? err.message : String(err)}`, "failed");
        if (progressList.querySelector('li[data-code="INSUFFICIENT_FUNDS"]') !== null) offerFaucet();
      },
    )
    .finally(() => {
      issuing = false;
      refreshControls();
    });
});

// ── the devnet's faucet: test ADA for the connected wallet, asked for when it holds too little ──────────────────
const FAUCET_WAIT_MS = 120_000;

function offerFaucet(): void {
  const box = document.getElementById("faucet-box");
  if (box === null || !hasServiceFaucet()) return;
  box.hidden = false;
  byId<HTMLButtonElement>("faucet").disabled = false;
  byId("faucet-status").replaceChildren();
}

const adaOf = (lovelace: string) => (Number(lovelace) / 1_000_000).toLocaleString("en", { maximumFractionDigits: 6 });
const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** Asks the faucet for test ADA: the service's challenge, signed by the wallet (CIP-30 signData), then the claim. */
async function claimTestAda(): Promise<void> {
  if (wallet === undefined) return;
  const button = byId<HTMLButtonElement>("faucet");
  const status = byId("faucet-status");
  const say = (text: Said, state: "working" | "done" | "failed") => {
    status.dataset["state"] = state;
    status.replaceChildren(...saidNodes(text));
  };
  button.disabled = true;
  try {
    say(WORDS.faucetAsking, "working");
    const challenge = await faucetRequest(wallet.address);
    say(WORDS.faucetSign, "working");
    let signed: { signature: string; key: string };
    try {
      signed = await wallet.api.signData(wallet.addressHex, hexOf(utf8(challenge.message)));
    } catch (err) {
      throw new Error(`your wallet did not sign (${walletErrorMessage(err)})`, { cause: err });
    }
    const paid = await faucetClaim(challenge, signed.signature, signed.key);
    const ada = adaOf(paid.lovelace);
    say(WORDS.faucetSent(ada, paid.transactionHash), "working");
    const started = Date.now();
    while (!(await isConfirmed(paid.transactionHash))) {
      if (Date.now() - started > FAUCET_WAIT_MS) throw new Error(`its transaction is not in a block after ${FAUCET_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    say(WORDS.faucetArrived(ada), "done");
  } catch (err) {
    say(WORDS.faucetFailed(err instanceof Error ? err.message : String(err)), "failed");
    button.disabled = false;
  }
}
document.getElementById("faucet")?.addEventListener("click", () => void claimTestAda());
// ── end of the devnet's faucet ─────────────────────────────────────────────────────────────────────────────────

renderWallets();
refreshControls();
// Wallet extensions may inject themselves after the page's script ran.
for (const ms of [300, 1500]) setTimeout(() => wallet === undefined && renderWallets(), ms);
