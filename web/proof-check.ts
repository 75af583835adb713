/**
 * Transparency-log proofs on the home page (docs/transparency-log.md#checking-a-proof): a `.tlog-proof` file dropped
 * or chosen with its document is checked entirely in the browser with shared/tlog (bundled into this script) against
 * the log's origin and verifier key from `GET /api/v1/log` on this origin. The document's SHA-256 (hashed by the
 * page, or entered) and the proof's 16-byte nonce give the leaf; the log's signature and the inclusion path do the
 * rest. Nothing else is fetched, nothing is uploaded.
 */
import { fromHex } from "../shared/tlog/encoding";
import { verifyHashProof, type HashProofCheck } from "../shared/tlog/hash-proof";
import { ED25519_TYPE, ed25519Verifier, parseVerifierKey, splitNote, type NoteVerifier } from "../shared/tlog/note";
import { TLOG_PROOF_HEADER } from "../shared/tlog/tlog-proof";
import { logInfo } from "./api";
import { byId, el } from "./dom";

/** A document the page knows the SHA-256 of: hashed from a file or a text, or entered. */
export interface ProofDocument {
  label: string;
  /** SHA-256, lowercase hex */
  hash: string;
}

interface Proof {
  name: string;
  text: string;
  node: HTMLLIElement;
  /** the documents it was last checked against (their hashes), to check again only when they change */
  checkedFor?: string;
}

type LogKey = { ok: true; origin: string; verifier: NoteVerifier } | { ok: false; reason: string };

const proofs: Proof[] = [];
let documents: ProofDocument[] = [];
let logKey: Promise<LogKey> | undefined;

const HEADER = new TextEncoder().encode(`${TLOG_PROOF_HEADER}\n`);

/** Whether a file's bytes are a c2sp.org/tlog-proof@v1 proof (by its first line). */
export function isTlogProof(bytes: Uint8Array): boolean {
  return bytes.length >= HEADER.length && HEADER.every((b, i) => bytes[i] === b);
}

/** The log's key, read once per page (again after a failure). */
function readLogKey(): Promise<LogKey> {
  logKey ??= logInfo().then(
    (info): LogKey => {
      const key = parseVerifierKey(info.verifierKey);
      if (!key.ok || key.value.name !== info.origin || key.value.type !== ED25519_TYPE)
        return { ok: false, reason: "This service's log key is not a log's Ed25519 verifier key named after its origin." };
      return { ok: true, origin: info.origin, verifier: ed25519Verifier(key.value) };
    },
    (err: unknown): LogKey => {
      logKey = undefined;
      return { ok: false, reason: `Could not read this service's log key: ${err instanceof Error ? err.message : String(err)}` };
    },
  );
  return logKey;
}

type Outcome =
  | { state: "waiting" }
  | { state: "unavailable"; reason: string }
  | { state: "invalid"; reason: string }
  | { state: "mismatch"; labels: string[] }
  | { state: "verified"; label: string; origin: string; index: number; size: number; cosigners: string[]; otherSignatures: number };

/** The check's refusal in words a reader can act on; `inclusion` (another document) is told apart by the caller. */
function refusalInWords(check: Extract<HashProofCheck, { ok: false }>, origin: string): string {
  switch (check.step) {
    case "format":
      return `This file is not a proof this page can read: ${check.error}.`;
    case "nonce":
      return `This proof carries no 16-byte nonce (its extra line), so it is not a receipt of this service's log: a document's entry cannot be computed without it (${check.error}).`;
    case "signature":
      return `The proof's checkpoint is not signed by this service's log (${origin}), so nothing it says can be trusted: ${check.error}.`;
    case "witnesses":
      return `Not enough witnesses cosigned the proof's checkpoint: ${check.error}.`;
    case "inclusion":
      return `The proof's inclusion path does not lead to its checkpoint's root: ${check.error}.`;
  }
}

async function outcomeOf(proof: Proof, docs: ProofDocument[]): Promise<Outcome> {
  if (docs.length === 0) return { state: "waiting" };
  const key = await readLogKey();
  if (!key.ok) return { state: "unavailable", reason: key.reason };
  const policy = { origin: key.origin, logKeys: [key.verifier] };
  let refusal: Extract<HashProofCheck, { ok: false }> | undefined;
  for (const doc of docs) {
    const check = verifyHashProof(proof.text, fromHex(doc.hash) ?? new Uint8Array(0), policy);
    if (check.ok) {
      const signatures = splitNote(check.value.proof.checkpoint);
      const others = signatures.ok ? signatures.value.signatures.filter((s) => s.name !== key.origin).length : 0;
      return {
        state: "verified",
        label: doc.label,
        origin: key.origin,
        index: check.value.proof.index,
        size: check.value.checkpoint.size,
        cosigners: check.value.cosigners.map((c) => c.name),
        otherSignatures: others,
      };
    }
    // Only a failing inclusion depends on the document: every other refusal is the proof's own.
    if (check.step !== "inclusion") return { state: "invalid", reason: refusalInWords(check, key.origin) };
    refusal = check;
  }
  return refusal !== undefined ? { state: "mismatch", labels: docs.map((d) => d.label) } : { state: "waiting" };
}

function render(proof: Proof, outcome: Outcome | { state: "checking" }): void {
  proof.node.dataset["proofState"] = outcome.state;
  const lines: Array<Node | string> = [];
  switch (outcome.state) {
    case "checking":
      lines.push(el("span", { class: "muted" }, "Checking…"));
      break;
    case "waiting":
      lines.push(
        el("span", { class: "badge" }, "Waiting for its document"),
        " Add the document this proof is for (drop or choose it above, or enter its SHA-256 hash): the proof is checked against its SHA-256.",
      );
      break;
    case "unavailable":
      lines.push(el("span", { class: "badge bad" }, "Not checked"), ` ${outcome.reason}`);
      break;
    case "invalid":
      lines.push(el("span", { class: "badge bad" }, "✗ Proof not valid"), ` ${outcome.reason}`);
      break;
    case "mismatch":
      lines.push(
        el("span", { class: "badge bad" }, "✗ Does not match"),
        ` This proof is not for ${outcome.labels.map((l) => `“${l}”`).join(", ")}: the entry computed from ${
          outcome.labels.length === 1 ? "this document's hash" : "these documents' hashes"
        } and the proof's nonce is not the one the proof places in the log. It is the proof of another document.`,
      );
      break;
    case "verified": {
      const witnesses =
        outcome.cosigners.length > 0
          ? `Cosigned by ${outcome.cosigners.join(", ")}.`
          : outcome.otherSignatures > 0
            ? `The checkpoint carries ${outcome.otherSignatures} other signature${outcome.otherSignatures === 1 ? "" : "s"}, not checked: this page knows no witness keys.`
            : "No witness has cosigned this checkpoint: it rests on the log's signature alone.";
      lines.push(
        el("span", { class: "badge ok" }, "✓ Proof verified"),
        ` “${outcome.label}” is in the transparency log ${outcome.origin}: entry ${outcome.index}, included in the checkpoint of size ${outcome.size} the log signed. `,
        el("span", { class: "muted" }, witnesses),
      );
      break;
    }
  }
  proof.node.replaceChildren(
    el("div", { class: "item-head" }, el("strong", {}, proof.name)),
    el("div", { class: "item-status" }, ...lines),
  );
}

async function check(proof: Proof): Promise<void> {
  const docs = documents;
  const key = docs.map((d) => d.hash).join(",");
  if (proof.checkedFor === key) return;
  proof.checkedFor = key;
  render(proof, { state: "checking" });
  const outcome = await outcomeOf(proof, docs);
  if (proof.checkedFor === key) render(proof, outcome);
}

/** Adds a proof file's text to the list and checks it against the documents known so far. */
export function addProof(name: string, bytes: Uint8Array): void {
  const proof: Proof = { name, text: new TextDecoder().decode(bytes), node: el("li", { class: "item" }) };
  proofs.push(proof);
  byId("proofs").append(proof.node);
  byId("proofs-empty").hidden = true;
  void check(proof);
}

/** The documents changed (added, hashed, removed): proofs are checked again against the SHA-256 ones. */
export function setProofDocuments(docs: ProofDocument[]): void {
  documents = docs.filter((d) => /^[0-9a-f]{64}$/.test(d.hash));
  for (const p of proofs) void check(p);
}
