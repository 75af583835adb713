/** Hashing in the browser with WebCrypto; the bytes never leave the page. */
export type Algorithm = "SHA-256" | "SHA-512";

export function canHash(): boolean {
  return typeof crypto !== "undefined" && crypto.subtle !== undefined;
}

export async function hashHex(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>, algorithm: Algorithm): Promise<string> {
  const digest = await crypto.subtle.digest(algorithm, bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);
