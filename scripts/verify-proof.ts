// `npm run verify-proof -- proof.json [--deployment <proxy policy id>] [--ogmios ws://host:port] [--log-key <vkey>]`:
// checks the proofs `GET /api/v1/proof/{hash}` answers (docs/merkle-batches.md#checking-a-proof-offline): of Merkle
// batches, and of the calendar's transparency log once a Cardano transaction anchors a checkpoint holding the hash
// (docs/transparency-log.md#anchored-proofs). The file holds one proof or the array. Offline: the inclusion path (in
// a log proof, of the entry SHA-256(nonce ‖ hash), to the root its checkpoint names), and, when the proof carries the
// anchoring transaction (`transactionCbor`), that the transaction has the proof's id and anchors the proof's root, with
// its tree id and size (or the log's origin and the checkpoint's size), through a state output of the proof's
// deployment, signed by the root certificate's issuer. With --deployment, also that this deployment is the one
// required. With --log-key, also that the log's key signed a log proof's checkpoint. With --ogmios, also that the
// chain behind that Ogmios endpoint holds the proof's block, with the transaction in it.
// Prints one JSON line per proof ({ leaf, root, valid, checked, issuer?, deployment?, confirmations?, reason? });
// exit code 0 when every proof holds, 1 when one does not, 2 for an unreadable file, bad arguments or a chain that
// could not be asked.
//
// `npm run verify-proof -- receipt.tlog-proof (--hash <hex> | --file <document>) (--log-key <vkey> | --log-url <url>)
// [--witness-key <cosigner vkey>]... [--quorum N]`: checks a c2sp.org/tlog-proof@v1 proof of the transparency log
// (docs/transparency-log.md#checking-a-proof), recognised by its first line. Prints one JSON line
// ({ kind: "tlog-proof", index, origin, size, valid, checked, cosigners, logKey, reason? }); same exit codes (2 also
// for a log URL that cannot be read).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createChainClient } from "../shared/chain";
import { checkAnchorOnChain, checkAnchorTransaction, checkInclusionProof, type AnchorCheckOptions } from "../shared/merkle";
import { PolicyId } from "../shared/domain/hex";
import { fromHex } from "../shared/tlog/encoding";
import { cosignatureVerifier, COSIGNATURE_TYPE } from "../shared/tlog/cosignature";
import { verifyHashProof, type HashProofStep } from "../shared/tlog/hash-proof";
import { ED25519_TYPE, ed25519Verifier, openNote, parseVerifierKey, type NoteVerifier } from "../shared/tlog/note";
import { TLOG_PROOF_HEADER } from "../shared/tlog/tlog-proof";
import { TLOG_CHECKPOINT_SCHEME } from "../shared/transparency-log/log-entries";

interface ProofReport {
  leaf: unknown;
  root: unknown;
  valid: boolean;
  /** what was checked and held, in order: "path", "checkpoint" (a log proof, with --log-key), "transaction", "chain" */
  checked: string[];
  /** when the transaction holds: the payment key hash of the root certificate's issuer, who signed it */
  issuer?: string;
  /** when the transaction holds: the deployment (proxy policy id) whose state output commits to the root */
  deployment?: string;
  /** blocks on the chain from the anchoring block to the tip (with --ogmios) */
  confirmations?: number;
  reason?: string;
  /** with --ogmios: the chain could not be asked (unreachable, or no answer in time) */
  chainUnreachable?: true;
}

/** The proofs in a file's text. @throws Error when the text is not JSON or holds no proof */
function proofsOfText(text: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error("the file is not JSON");
  }
  const proofs = Array.isArray(parsed) ? parsed : [parsed];
  if (proofs.length === 0) throw new Error("the file holds no proof");
  return proofs;
}

interface OfflineOptions extends AnchorCheckOptions {
  /** the transparency log's key, for the checkpoints of log proofs */
  logKey?: NoteVerifier;
}

/**
 * The offline report of one proof: the path, a log proof's checkpoint signature (with `opts.logKey`), then the
 * anchoring transaction when the proof carries it (under `opts.deployment` when given).
 */
function checkProofOffline(p: unknown, opts: OfflineOptions = {}): ProofReport {
  const fields = p !== null && typeof p === "object" ? (p as Record<string, unknown>) : {};
  const report: ProofReport = { leaf: fields["leaf"], root: fields["root"], valid: false, checked: [] };
  const path = checkInclusionProof(p);
  if (!path.valid) return { ...report, reason: path.reason };
  report.checked.push("path");
  if (fields["scheme"] === TLOG_CHECKPOINT_SCHEME && opts.logKey !== undefined) {
    // the path ends at the root the checkpoint's text names (checkInclusionProof): the signature vouches for it
    const opened = openNote(fields["checkpoint"] as string, [opts.logKey]);
    if (!opened.ok) return { ...report, reason: `the checkpoint is not signed by the log key ${opts.logKey.name}: ${opened.error}` };
    report.checked.push("checkpoint");
  }
  if (fields["transactionCbor"] !== undefined) {
    const tx = checkAnchorTransaction(fields, opts);
    if (!tx.valid) return { ...report, reason: tx.reason };
    report.checked.push("transaction");
    return { ...report, valid: true, issuer: tx.issuer, deployment: tx.deployment };
  }
  return { ...report, valid: true };
}

/** Offline checks, then the chain through Ogmios at `ogmiosUrl` for each proof that holds offline. */
async function checkProofsAgainstChain(proofs: unknown[], ogmiosUrl: string, opts: OfflineOptions = {}): Promise<ProofReport[]> {
  const chain = createChainClient({ url: ogmiosUrl, requestTimeoutMs: 15_000, reconnect: { maxAttempts: 1 } });
  try {
    const reports: ProofReport[] = [];
    for (const p of proofs) {
      const report = checkProofOffline(p, opts);
      if (report.valid && !report.checked.includes("transaction")) {
        reports.push({ ...report, valid: false, reason: "the proof carries no transactionCbor, so the chain cannot vouch for its root" });
        continue;
      }
      if (!report.valid) {
        reports.push(report);
        continue;
      }
      const onChain = await checkAnchorOnChain(chain, p as Record<string, unknown>);
      reports.push(
        onChain.valid
          ? { ...report, checked: [...report.checked, "chain"], confirmations: onChain.confirmations }
          : { ...report, valid: false, reason: onChain.reason, ...(onChain.unreachable ? { chainUnreachable: true as const } : {}) },
      );
    }
    return reports;
  } finally {
    await chain.close();
  }
}

interface Args {
  file: string;
  ogmios?: string;
  deployment?: PolicyId;
  logKey?: NoteVerifier;
}

function parseArgs(argv: string[]): Args {
  const usage =
    "usage: npm run verify-proof -- <proof.json> [--deployment <proxy policy id>] [--ogmios ws://host:port] [--log-key <log verifier key>]";
  let file: string | undefined;
  let ogmios: string | undefined;
  let deployment: PolicyId | undefined;
  let logKey: NoteVerifier | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--log-key" || a.startsWith("--log-key=")) {
      const value = a === "--log-key" ? argv[++i] : a.slice("--log-key=".length);
      if (value === undefined || value === "") throw new Error(`--log-key needs the log's verifier key; ${usage}`);
      logKey = verifierOf(value, ED25519_TYPE, "--log-key");
    } else if (a === "--deployment" || a.startsWith("--deployment=")) {
      deployment = PolicyId.parse(a === "--deployment" ? argv[++i] : a.slice("--deployment=".length));
      if (deployment === undefined) throw new Error(`--deployment needs the deployment's proxy policy id, 56 hex digits; ${usage}`);
    } else if (a === "--ogmios") {
      ogmios = argv[++i];
      if (ogmios === undefined || !/^wss?:\/\//.test(ogmios)) throw new Error(`--ogmios needs a ws:// or wss:// address; ${usage}`);
    } else if (a.startsWith("--ogmios=")) ogmios = a.slice("--ogmios=".length);
    else if (file === undefined && !a.startsWith("--")) file = a;
    else throw new Error(`unexpected argument ${a}; ${usage}`);
  }
  if (file === undefined) throw new Error(usage);
  return {
    file,
    ...(ogmios !== undefined ? { ogmios } : {}),
    ...(deployment !== undefined ? { deployment } : {}),
    ...(logKey !== undefined ? { logKey } : {}),
  };
}

/** Writes `text` and exits: a failed chain-sync start can leave the Ogmios client retrying in the background. */
function finish(out: NodeJS.WriteStream, text: string, code: number): void {
  out.write(text, () => process.exit(code));
}

// ── c2sp.org/tlog-proof@v1 ───────────────────────────────────────────────────────────────────────────────

const TLOG_USAGE =
  "usage: npm run verify-proof -- <receipt.tlog-proof> (--hash <64 hex> | --file <document>) (--log-key <verifier key> | --log-url <API base or its /log URL>) [--witness-key <cosigner verifier key>]... [--quorum N]";

interface TlogArgs {
  file: string;
  hash?: string;
  document?: string;
  logKey?: string;
  logUrl?: string;
  witnessKeys: string[];
  quorum: number;
}

interface TlogReport {
  kind: "tlog-proof";
  index?: number;
  origin?: string;
  size?: number;
  valid: boolean;
  /** what was checked and held, in order: "nonce", "signature", "witnesses" (with --quorum above 0), "inclusion" */
  checked: string[];
  /** the known witnesses whose cosignatures verified */
  cosigners: string[];
  /** the log's verifier key the proof was checked against */
  logKey: string;
  /** with --log-url: where the key came from; it is trusted on first use (the log vouched for its own key) */
  logKeyFrom?: string;
  trust?: "first use";
  reason?: string;
}

/** The option values of `argv` (options that take a value, repeatable ones gathered) and its positional arguments. */
function parseTlogArgs(argv: string[]): TlogArgs {
  const single = new Map<string, string>();
  const witnessKeys: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^(--[a-z-]+)(?:=(.*))?$/s.exec(a);
    if (m === null) {
      positional.push(a);
      continue;
    }
    const name = m[1]!;
    if (!["--hash", "--file", "--log-key", "--log-url", "--witness-key", "--quorum"].includes(name))
      throw new Error(`${name} does not apply to a tlog-proof; ${TLOG_USAGE}`);
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === "") throw new Error(`${name} needs a value; ${TLOG_USAGE}`);
    if (name === "--witness-key") witnessKeys.push(value);
    else if (single.has(name)) throw new Error(`${name} given twice; ${TLOG_USAGE}`);
    else single.set(name, value);
  }
  if (positional.length !== 1) throw new Error(TLOG_USAGE);
  const hash = single.get("--hash");
  const document = single.get("--file");
  if ((hash === undefined) === (document === undefined)) throw new Error(`give one of --hash and --file; ${TLOG_USAGE}`);
  if (hash !== undefined && !/^[0-9a-fA-F]{64}$/.test(hash)) throw new Error(`--hash needs a SHA-256 hash, 64 hex digits; ${TLOG_USAGE}`);
  const logKey = single.get("--log-key");
  const logUrl = single.get("--log-url");
  if ((logKey === undefined) === (logUrl === undefined)) throw new Error(`give one of --log-key and --log-url; ${TLOG_USAGE}`);
  if (logUrl !== undefined && !/^https?:\/\//.test(logUrl))
    throw new Error(`--log-url needs an http:// or https:// address; ${TLOG_USAGE}`);
  const quorumText = single.get("--quorum") ?? "0";
  if (!/^(0|[1-9][0-9]{0,2})$/.test(quorumText)) throw new Error(`--quorum needs a whole number; ${TLOG_USAGE}`);
  return {
    file: positional[0]!,
    ...(hash !== undefined ? { hash: hash.toLowerCase() } : {}),
    ...(document !== undefined ? { document } : {}),
    ...(logKey !== undefined ? { logKey } : {}),
    ...(logUrl !== undefined ? { logUrl } : {}),
    witnessKeys,
    quorum: Number(quorumText),
  };
}

/** A verifier of `type` for a verifier key string. @throws Error naming the option when it is not one */
function verifierOf(vkey: string, type: number, option: string): NoteVerifier {
  const key = parseVerifierKey(vkey);
  if (!key.ok) throw new Error(`${option}: ${key.error}`);
  if (key.value.type !== type)
    throw new Error(
      `${option}: ${key.value.name} is a key of type ${key.value.type}, not ${type === ED25519_TYPE ? "a log's Ed25519 key (1)" : "a cosigner key (4)"}`,
    );
  return type === ED25519_TYPE ? ed25519Verifier(key.value) : cosignatureVerifier(key.value);
}

/** `GET …/log`: the log's verifier key, from the API base or the /log URL itself. @throws Error when unreachable or not a log */
async function logKeyFromUrl(url: string): Promise<{ verifierKey: string; from: string }> {
  const base = url.replace(/\/+$/, "");
  const from = /\/log$/.test(new URL(base).pathname) ? base : `${base}/log`;
  let res: Response;
  try {
    res = await fetch(from, { headers: { Accept: "application/json" }, redirect: "error", signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new Error(`${from} could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.status !== 200) throw new Error(`${from} answered HTTP ${res.status}`);
  const body = (await res.json().catch(() => undefined)) as { origin?: unknown; verifierKey?: unknown } | undefined;
  if (typeof body?.verifierKey !== "string" || typeof body.origin !== "string")
    throw new Error(`${from} did not answer a log's origin and verifierKey`);
  if (!body.verifierKey.startsWith(`${body.origin}+`))
    throw new Error(`${from}: the verifier key is not named after the origin ${body.origin}`);
  return { verifierKey: body.verifierKey, from };
}

const STEPS_BEFORE: Record<HashProofStep, string[]> = {
  format: [],
  nonce: [],
  signature: ["nonce"],
  witnesses: ["nonce", "signature"],
  inclusion: ["nonce", "signature", "witnesses"],
};

/** Checks a tlog-proof text. @throws Error for bad arguments, an unreadable document or an unreachable log URL (exit 2) */
async function checkTlogProof(text: string, args: TlogArgs): Promise<TlogReport> {
  const fetched = args.logUrl !== undefined ? await logKeyFromUrl(args.logUrl) : undefined;
  const logKey = fetched?.verifierKey ?? args.logKey!;
  const log = verifierOf(logKey, ED25519_TYPE, args.logUrl !== undefined ? `the key at ${fetched!.from}` : "--log-key");
  const witnessKeys = args.witnessKeys.map((k) => verifierOf(k, COSIGNATURE_TYPE, "--witness-key"));
  const hash = args.document !== undefined ? createHash("sha256").update(readFileSync(args.document)).digest() : fromHex(args.hash!)!;
  const checked = verifyHashProof(text, hash, { origin: log.name, logKeys: [log], witnessKeys, quorum: args.quorum });
  const base = {
    kind: "tlog-proof" as const,
    origin: log.name,
    logKey,
    ...(fetched !== undefined ? { logKeyFrom: fetched.from, trust: "first use" as const } : {}),
  };
  const withWitnesses = (steps: string[]) => steps.filter((s) => s !== "witnesses" || args.quorum > 0);
  if (!checked.ok)
    return {
      ...base,
      ...(checked.index !== undefined ? { index: checked.index } : {}),
      ...(checked.size !== undefined ? { size: checked.size } : {}),
      valid: false,
      checked: withWitnesses(STEPS_BEFORE[checked.step]),
      cosigners: [],
      reason: checked.error,
    };
  const v = checked.value;
  return {
    ...base,
    index: v.proof.index,
    size: v.checkpoint.size,
    valid: true,
    checked: withWitnesses(["nonce", "signature", "witnesses", "inclusion"]),
    cosigners: v.cosigners.map((c) => c.name),
  };
}

// ── entry ────────────────────────────────────────────────────────────────────────────────────────────────

/** The proof file named in `argv`: the one argument that is neither an option nor an option's value. */
function proofFileOf(argv: string[]): string | undefined {
  const withValue = /^--(hash|file|log-key|log-url|witness-key|quorum|deployment|ogmios)$/;
  for (let i = 0; i < argv.length; i++) {
    if (withValue.test(argv[i]!)) i++;
    else if (!argv[i]!.startsWith("--")) return argv[i];
  }
  return undefined;
}

const errorLine = (err: unknown) => `${JSON.stringify({ error: "ERROR", message: err instanceof Error ? err.message : String(err) })}\n`;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let text: string;
  try {
    const file = proofFileOf(argv);
    if (file === undefined) throw new Error(`usage: npm run verify-proof -- <proof.json | receipt.tlog-proof> …`);
    text = readFileSync(file, "utf8");
  } catch (err) {
    return finish(process.stderr, errorLine(err), 2);
  }
  if (text.startsWith(`${TLOG_PROOF_HEADER}\n`)) {
    let report: TlogReport;
    try {
      report = await checkTlogProof(text, parseTlogArgs(argv));
    } catch (err) {
      return finish(process.stderr, errorLine(err), 2);
    }
    return finish(process.stdout, `${JSON.stringify(report)}\n`, report.valid ? 0 : 1);
  }
  let args: Args;
  let proofs: unknown[];
  try {
    args = parseArgs(argv);
    proofs = proofsOfText(text);
  } catch (err) {
    return finish(process.stderr, errorLine(err), 2);
  }
  const opts: OfflineOptions = {
    ...(args.deployment !== undefined ? { deployment: args.deployment } : {}),
    ...(args.logKey !== undefined ? { logKey: args.logKey } : {}),
  };
  const reports =
    args.ogmios !== undefined ? await checkProofsAgainstChain(proofs, args.ogmios, opts) : proofs.map((p) => checkProofOffline(p, opts));
  const out = reports.map((r) => `${JSON.stringify(r)}\n`).join("");
  finish(process.stdout, out, reports.some((r) => r.chainUnreachable) ? 2 : reports.every((r) => r.valid) ? 0 : 1);
}

if (require.main === module) {
  main().catch((err: unknown) => finish(process.stderr, errorLine(err), 2));
}
