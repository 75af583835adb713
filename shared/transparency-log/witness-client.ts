/**
 * The log's side of c2sp.org/tlog-witness §add-checkpoint: sends a checkpoint and a consistency proof to one
 * witness and keeps only the cosignature lines that verify against that witness's key, as the spec suggests: the
 * answer appended to the signed checkpoint, opened as a note with the witness key as the only verifier. A 409 gives
 * the size the witness holds, so the caller can resend with a proof from there. No redirect is followed, the answer
 * is read up to a small bound, and the whole exchange has a deadline.
 */
import { cosignatureVerifier } from "../tlog/cosignature";
import { type VerifierKey, formatSignatureLine, openNote, parseVerifierKey } from "../tlog/note";
import { formatAddCheckpoint } from "../tlog/witness-protocol";

export interface WitnessEndpoint {
  /** the witness's submission prefix, e.g. `https://witness.example/` (add-checkpoint is appended) */
  url: string;
  /** the witness's cosigner verifier key (type 0x04), as a vkey string or parsed */
  verifierKey: string | VerifierKey;
}

export interface CosignatureRequest {
  /** the size the witness last cosigned (0 the first time, or after a 409 named another) */
  oldSize: number;
  /** the consistency proof from oldSize to the checkpoint's size (empty from 0) */
  consistencyProof: readonly Uint8Array[];
  /** the log's signed checkpoint note */
  signedCheckpoint: string;
}

export interface CosignatureOptions {
  /** the deadline of the whole exchange, ms (default 10 s) */
  timeoutMs?: number;
  /** the most answer bytes read (default 16 KiB) */
  maxResponseBytes?: number;
  fetch?: typeof fetch;
}

export type CosignatureResult =
  /** the witness's cosignature lines that verify for this checkpoint, each ending in a newline */
  | { ok: true; lines: string[] }
  /** 409: the witness's latest cosigned size differs from oldSize */
  | { ok: false; conflictSize: number }
  | { ok: false; error: string; status?: number };

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024;

/** `<prefix>/add-checkpoint` with exactly one slash between. */
export function addCheckpointUrl(prefix: string): string {
  return `${prefix.replace(/\/+$/, "")}/add-checkpoint`;
}

/** The body as text, or undefined when it exceeds `max` bytes (the rest is not read). */
async function readBounded(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.length;
    if (received > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The verified cosignature lines of `answer` (the 200 body) for this checkpoint, or why there are none. */
function verifiedLines(signedCheckpoint: string, answer: string, key: VerifierKey): CosignatureResult {
  const opened = openNote(`${signedCheckpoint}${answer}`, [cosignatureVerifier(key)]);
  if (!opened.ok) return { ok: false, status: 200, error: `the witness's answer does not hold its cosignature: ${opened.error}` };
  return { ok: true, lines: opened.value.verified.map(formatSignatureLine) };
}

/**
 * POSTs `add-checkpoint` to the witness. Never throws for what the network or the witness does: every failure is
 * `{ ok: false, error }` naming it (with the HTTP status when there was an answer).
 */
export async function requestCosignature(
  witness: WitnessEndpoint,
  request: CosignatureRequest,
  opts: CosignatureOptions = {},
): Promise<CosignatureResult> {
  const key =
    typeof witness.verifierKey === "string" ? parseVerifierKey(witness.verifierKey) : { ok: true as const, value: witness.verifierKey };
  if (!key.ok) return { ok: false, error: `the witness's verifier key is malformed: ${key.error}` };
  if (!request.signedCheckpoint.endsWith("\n")) return { ok: false, error: "the signed checkpoint does not end with a newline" };
  const url = addCheckpointUrl(witness.url);
  const body = formatAddCheckpoint({
    oldSize: request.oldSize,
    consistencyProof: request.consistencyProof,
    note: request.signedCheckpoint,
  });
  const doFetch = opts.fetch ?? fetch;
  try {
    const res = await doFetch(url, {
      method: "POST",
      headers: { "Content-Type": "text/plain; charset=utf-8" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) {
      await res.body?.cancel();
      return { ok: false, status: res.status, error: `${url} answered a redirect (${res.status}); witnesses are not followed elsewhere` };
    }
    const text = await readBounded(res, opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    if (text === undefined) return { ok: false, status: res.status, error: `${url} answered more than the bound of the answer's size` };
    if (res.status === 200) return verifiedLines(request.signedCheckpoint, text, key.value);
    if (res.status === 409) {
      const size = /^(0|[1-9][0-9]{0,15})\n$/.exec(text);
      const type = res.headers.get("content-type") ?? "";
      if (size && type.split(";")[0]!.trim() === "text/x.tlog.size") return { ok: false, conflictSize: Number(size[1]) };
      return { ok: false, status: 409, error: `${url} answered 409 without a text/x.tlog.size body (${type}): ${text.slice(0, 200)}` };
    }
    return { ok: false, status: res.status, error: `${url} answered ${res.status}: ${text.trim().slice(0, 500)}` };
  } catch (err) {
    const reason = err instanceof Error ? (err.name === "TimeoutError" ? "no answer within the timeout" : err.message) : String(err);
    return { ok: false, error: `${url}: ${reason}` };
  }
}
