// `npm run verify-proof -- proof.json`: checks Merkle batch proofs offline (docs/merkle-batches.md#checking-a-proof-offline).
// The file holds one proof or the array `GET /api/v1/proof/{hash}` answers. Prints one JSON line per proof
// ({ leaf, root, valid, reason? }); exit code 0 when every proof holds, 1 when one does not, 2 for an unreadable
// file. Offline means no chain: that `root` is anchored with `treeSize` leaves is checked with /verify/{root}.
import { readFileSync } from "node:fs";
import { checkInclusionProof } from "../shared/merkle";

export interface ProofReport {
  leaf: unknown;
  root: unknown;
  valid: boolean;
  reason?: string;
}

/** The reports of every proof in a file's text. @throws Error when the text is not JSON or holds no proof */
export function checkProofText(text: string): ProofReport[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error("the file is not JSON");
  }
  const proofs = Array.isArray(parsed) ? parsed : [parsed];
  if (proofs.length === 0) throw new Error("the file holds no proof");
  return proofs.map((p: unknown) => {
    const check = checkInclusionProof(p);
    const fields = p !== null && typeof p === "object" ? (p as Record<string, unknown>) : {};
    return { leaf: fields["leaf"], root: fields["root"], ...check };
  });
}

if (require.main === module) {
  const file = process.argv[2];
  try {
    if (file === undefined) throw new Error("usage: npm run verify-proof -- <proof.json>");
    const reports = checkProofText(readFileSync(file, "utf8"));
    for (const r of reports) process.stdout.write(`${JSON.stringify(r)}\n`);
    process.exitCode = reports.every((r) => r.valid) ? 0 : 1;
  } catch (err) {
    process.stderr.write(`${JSON.stringify({ error: "ERROR", message: err instanceof Error ? err.message : String(err) })}\n`);
    process.exitCode = 2;
  }
}
