// `npm run verify-proof -- proof.json [--deployment <proxy policy id>] [--ogmios ws://host:port]`: checks Merkle
// batch proofs (docs/merkle-batches.md#checking-a-proof-offline). The file holds one proof or the array
// `GET /api/v1/proof/{hash}` answers. Offline: the inclusion path, and, when the proof carries the anchoring
// transaction (`transactionCbor`), that the transaction has the proof's id and anchors the proof's root, tree id and
// size through a state output of the proof's deployment, signed by the root certificate's issuer. With --deployment,
// also that this deployment is the one required. With --ogmios, also that the chain behind that Ogmios endpoint holds
// the proof's block, with the transaction in it.
// Prints one JSON line per proof ({ leaf, root, valid, checked, issuer?, deployment?, confirmations?, reason? });
// exit code 0 when every proof holds, 1 when one does not, 2 for an unreadable file, bad arguments or a chain that
// could not be asked.
import { readFileSync } from "node:fs";
import { createChainClient } from "../shared/chain";
import { checkAnchorOnChain, checkAnchorTransaction, checkInclusionProof, type AnchorCheckOptions } from "../shared/merkle";
import { PolicyId } from "../shared/domain/hex";

interface ProofReport {
  leaf: unknown;
  root: unknown;
  valid: boolean;
  /** what was checked and held, in order: "path", "transaction", "chain" */
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

/**
 * The offline report of one proof: the path, then the anchoring transaction when the proof carries it (under
 * `opts.deployment` when given).
 */
function checkProofOffline(p: unknown, opts: AnchorCheckOptions = {}): ProofReport {
  const fields = p !== null && typeof p === "object" ? (p as Record<string, unknown>) : {};
  const report: ProofReport = { leaf: fields["leaf"], root: fields["root"], valid: false, checked: [] };
  const path = checkInclusionProof(p);
  if (!path.valid) return { ...report, reason: path.reason };
  report.checked.push("path");
  if (fields["transactionCbor"] !== undefined) {
    const tx = checkAnchorTransaction(fields, opts);
    if (!tx.valid) return { ...report, reason: tx.reason };
    report.checked.push("transaction");
    return { ...report, valid: true, issuer: tx.issuer, deployment: tx.deployment };
  }
  return { ...report, valid: true };
}

/** Offline checks, then the chain through Ogmios at `ogmiosUrl` for each proof that holds offline. */
async function checkProofsAgainstChain(proofs: unknown[], ogmiosUrl: string, opts: AnchorCheckOptions = {}): Promise<ProofReport[]> {
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
}

function parseArgs(argv: string[]): Args {
  const usage = "usage: npm run verify-proof -- <proof.json> [--deployment <proxy policy id>] [--ogmios ws://host:port]";
  let file: string | undefined;
  let ogmios: string | undefined;
  let deployment: PolicyId | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--deployment" || a.startsWith("--deployment=")) {
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
  return { file, ...(ogmios !== undefined ? { ogmios } : {}), ...(deployment !== undefined ? { deployment } : {}) };
}

/** Writes `text` and exits: a failed chain-sync start can leave the Ogmios client retrying in the background. */
function finish(out: NodeJS.WriteStream, text: string, code: number): void {
  out.write(text, () => process.exit(code));
}

async function main(): Promise<void> {
  let args: Args;
  let proofs: unknown[];
  try {
    args = parseArgs(process.argv.slice(2));
    proofs = proofsOfText(readFileSync(args.file, "utf8"));
  } catch (err) {
    return finish(process.stderr, `${JSON.stringify({ error: "ERROR", message: err instanceof Error ? err.message : String(err) })}\n`, 2);
  }
  const opts: AnchorCheckOptions = args.deployment !== undefined ? { deployment: args.deployment } : {};
  const reports =
    args.ogmios !== undefined ? await checkProofsAgainstChain(proofs, args.ogmios, opts) : proofs.map((p) => checkProofOffline(p, opts));
  const text = reports.map((r) => `${JSON.stringify(r)}\n`).join("");
  finish(process.stdout, text, reports.some((r) => r.chainUnreachable) ? 2 : reports.every((r) => r.valid) ? 0 : 1);
}

if (require.main === module) {
  main().catch((err: unknown) =>
    finish(process.stderr, `${JSON.stringify({ error: "ERROR", message: err instanceof Error ? err.message : String(err) })}\n`, 2),
  );
}
