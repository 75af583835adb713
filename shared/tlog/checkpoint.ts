/**
 * c2sp.org/tlog-checkpoint §Note text: origin line, tree size in decimal without leading zeros, base64 root hash,
 * optional non-empty extension lines, each line ending in a newline. Signing and opening are signed-note's (note.ts).
 */
import { fromBase64, parseDecimal, type Result, ok, fail, toBase64 } from "./encoding";
import { TlogError } from "./errors";
import { HASH_SIZE } from "./rfc9162";

export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Uint8Array;
  /** opaque extension lines, without their newline (the spec does not recommend them) */
  extensions: string[];
}

function badLine(line: string, what: string): string | undefined {
  if (line === "") return `the ${what} line is empty`;
  if (line.includes("\n")) return `the ${what} line holds a newline`;
  return undefined;
}

/** The checkpoint's note text, final newline included. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, rootHash, extensions } = checkpoint;
  const bad =
    badLine(origin, "origin") ??
    (Number.isSafeInteger(size) && size >= 0 ? undefined : `tree size ${size} is not a non-negative integer`) ??
    (rootHash.length === HASH_SIZE ? undefined : `the root hash has ${rootHash.length} bytes, not ${HASH_SIZE}`) ??
    extensions.map((e) => badLine(e, "extension")).find((e) => e !== undefined);
  if (bad) throw new TlogError("TLOG_BAD_NOTE", bad);
  return [origin, String(size), toBase64(rootHash), ...extensions].map((l) => `${l}\n`).join("");
}

/** Parses a checkpoint's note text (the text a signed note opened to, not the signatures). */
export function parseCheckpoint(text: string): Result<Checkpoint> {
  if (!text.endsWith("\n")) return fail("a checkpoint text ends with a newline");
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3) return fail(`a checkpoint has at least three lines, not ${lines.length}`);
  const [origin, sizeLine, rootLine, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin === "") return fail("the origin line is empty");
  const size = parseDecimal(sizeLine);
  if (size === undefined) return fail(`tree size "${sizeLine}" is not a decimal without leading zeros`);
  const rootHash = fromBase64(rootLine);
  if (!rootHash || rootHash.length !== HASH_SIZE) return fail(`root hash "${rootLine}" is not base64 of ${HASH_SIZE} bytes`);
  if (extensions.some((e) => e === "")) return fail("an extension line is empty");
  return ok({ origin, size, rootHash, extensions });
}
