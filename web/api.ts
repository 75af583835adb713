/** The public API as the pages use it (same origin, `/api/v1`); error answers become errors with the API's message. */
const API = "/api/v1";

export interface CertificateRecord {
  hash: string;
  transactionHash: string;
  blockNumber: number;
  creationTime: number;
  address: string;
}

export interface BuildResponse {
  unsignedTransaction: string | null;
  status: { code: string; message: string };
}

class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function call(path: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(API + path, {
    ...init,
    headers: { Accept: "application/json", ...(init?.body ? { "Content-Type": "application/json" } : {}) },
  });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

const messageOf = (body: unknown, status: number): string => {
  const b = body as { message?: unknown; status?: { message?: unknown } } | undefined;
  const m = typeof b?.message === "string" ? b.message : typeof b?.status?.message === "string" ? b.status.message : undefined;
  return m ?? `the service answered HTTP ${status}`;
};

/** Certificates of a hash, oldest first; [] when none. */
export async function certificatesOf(hash: string): Promise<CertificateRecord[]> {
  const { status, body } = await call(`/verify/${hash}`);
  if (status === 404) return [];
  if (status !== 200) throw new ApiError(messageOf(body, status), status);
  return body as CertificateRecord[];
}

/** The short link bound to a hash (`GET /short-link/{hash}`); undefined when the hash has none of its own. */
export async function shortLinkOf(hash: string): Promise<string | undefined> {
  const { status, body } = await call(`/short-link/${hash}`);
  if (status === 404) return undefined;
  if (status !== 200) throw new ApiError(messageOf(body, status), status);
  return (body as { url: string }).url;
}

/** A build-like answer (build, prepare-collateral): the BuildTransactionResponse whatever the HTTP status. */
export async function postBuild(path: string, request: unknown): Promise<BuildResponse> {
  const { status, body } = await call(path, { method: "POST", body: JSON.stringify(request) });
  const b = body as Partial<BuildResponse> | undefined;
  if (b?.status && typeof b.status.code === "string") return b as BuildResponse;
  throw new ApiError(messageOf(body, status), status);
}

export async function submit(transaction: string, witnessSet: string): Promise<string> {
  const { status, body } = await call("/transaction/submit", { method: "POST", body: JSON.stringify({ transaction, witnessSet }) });
  const hash = (body as { transactionHash?: unknown } | undefined)?.transactionHash;
  if (status === 200 && typeof hash === "string") return hash;
  throw new ApiError(messageOf(body, status), status);
}

export async function isConfirmed(txHash: string): Promise<boolean> {
  const { status, body } = await call(`/transaction/confirm/${txHash}`);
  if (status === 200) return true;
  if (status === 404) return false;
  throw new ApiError(messageOf(body, status), status);
}

/** A faucet challenge (`POST /faucet/request`): the service's signed message, which the wallet signs too. */
export interface FaucetChallenge {
  address: string;
  message: string;
  signature: string;
  timestamp: number;
}

export async function faucetRequest(address: string): Promise<FaucetChallenge> {
  const { status, body } = await call("/faucet/request", { method: "POST", body: JSON.stringify({ address }) });
  const b = body as Partial<FaucetChallenge> | undefined;
  if (status === 200 && typeof b?.message === "string" && typeof b.signature === "string" && typeof b.timestamp === "number")
    return { address, message: b.message, signature: b.signature, timestamp: b.timestamp };
  throw new ApiError(messageOf(body, status), status);
}

/** Claims test ADA with the wallet's signature of the challenge: the faucet's transaction and the lovelace it pays. */
export async function faucetClaim(
  challenge: FaucetChallenge,
  userSignature: string,
  userPublicKey: string,
): Promise<{ transactionHash: string; lovelace: string }> {
  const { status, body } = await call("/faucet/claim", {
    method: "POST",
    body: JSON.stringify({ ...challenge, userSignature, userPublicKey }),
  });
  const b = body as { transactionHash?: unknown; lovelace?: unknown } | undefined;
  if (status === 200 && typeof b?.transactionHash === "string" && typeof b.lovelace === "string")
    return { transactionHash: b.transactionHash, lovelace: b.lovelace };
  throw new ApiError(messageOf(body, status), status);
}

export interface LogInfo {
  origin: string;
  verifierKey: string;
}

/** The transparency log's origin and verifier key (`GET /log`). */
export async function logInfo(): Promise<LogInfo> {
  const { status, body } = await call("/log");
  const b = body as Partial<LogInfo> | undefined;
  if (status === 200 && typeof b?.origin === "string" && typeof b.verifierKey === "string")
    return { origin: b.origin, verifierKey: b.verifierKey };
  throw new ApiError(status === 200 ? "the service did not answer a log's origin and key" : messageOf(body, status), status);
}
