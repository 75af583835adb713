/**
 * Certificate metadata travels on chain as a list of byte strings of at most 64 bytes (the Plutus bytestring
 * limit), cut on UTF-8 boundaries so every chunk is valid UTF-8 on its own (docs/protocol.md#metadata-chunks).
 */
const MAX_CHUNK_BYTES = 64;

/** Splits `text` into UTF-8 chunks of at most 64 bytes; "" gives one empty chunk, as the reference does. */
export function chunkMetadata(text: string, maxBytes = MAX_CHUNK_BYTES): string[] {
  const utf8 = Buffer.from(text, "utf8");
  if (utf8.length <= maxBytes) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < utf8.length) {
    let end = Math.min(start + maxBytes, utf8.length);
    // Move the cut back while the byte after it continues a multi-byte sequence (10xxxxxx).
    while (end < utf8.length && end > start && (utf8[end]! & 0xc0) === 0x80) end--;
    chunks.push(utf8.subarray(start, end).toString("utf8"));
    start = end;
  }
  return chunks;
}

/** The inverse of chunkMetadata. */
export function joinMetadataChunks(chunks: readonly string[]): string {
  return chunks.join("");
}
