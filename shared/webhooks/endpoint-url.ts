/**
 * The SSRF guard (docs/webhooks.md#ssrf): an endpoint URL is parsed and checked, its host resolved, and every
 * address it resolves to classified; an address in a non-public range is refused unless the operator allows
 * private networks. The sender then connects to the address checked here (never a second lookup, so DNS
 * rebinding between the check and the connection gains nothing).
 *
 * Refused always: unspecified (0.0.0.0/8, ::), multicast (224.0.0.0/4, ff00::/8), broadcast and the reserved
 * 240.0.0.0/4. Refused unless `allowPrivateNetworks`: loopback (127/8, ::1), RFC 1918 (10/8, 172.16/12,
 * 192.168/16), CGNAT 100.64/10, link-local (169.254/16 — cloud metadata services live there — and fe80::/10),
 * IETF, documentation and benchmarking ranges, ULA fc00::/7, site-local fec0::/10, discard 100::/64, Teredo
 * 2001::/32, local NAT64 64:ff9b:1::/48; and an IPv4 address refused above in any IPv6 form that carries it
 * (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIPv4, isIPv6 } from "node:net";
import { WebhookError, webhookError } from "./errors";

export const MAX_URL_LENGTH = 2_048;

export interface AddressPolicy {
  allowPrivateNetworks: boolean;
  allowHttp: boolean;
}

export interface EndpointUrl {
  /** The URL as normalised by the WHATWG parser (IPv4 in any notation written as dotted decimal). */
  href: string;
  secure: boolean;
  /** Without IPv6 brackets. */
  hostname: string;
  port: number;
  /** `host[:port]` as the Host header carries it. */
  hostHeader: string;
  /** Path and query. */
  path: string;
  /** The host is an IP address written in the URL (nothing to resolve). */
  ipLiteral: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to all of its addresses (the default is `node:dns/promises` `lookup`, all, in resolver order). */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, order: "verbatim" })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

type RangeKind = "never" | "private";

interface Range {
  bits: number[];
  prefix: number;
  name: string;
  kind: RangeKind;
}

function v4(text: string): number[] {
  return text.split(".").map(Number);
}

function v6(text: string): number[] {
  let head = text;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    // the dotted tail stands for the last two groups: parse them as zeros, then write its bytes over them
    tail = v4(text.slice(lastColon + 1));
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left, right] = head.includes("::") ? head.split("::", 2) : [head, undefined];
  const groups = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const l = groups(left);
  const r = groups(right);
  const words = right === undefined ? l : [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

const range = (cidr: string, name: string, kind: RangeKind): Range => {
  const [base, prefix] = cidr.split("/") as [string, string];
  return { bits: isIPv4(base) ? v4(base) : v6(base), prefix: Number(prefix), name, kind };
};

const V4_RANGES: readonly Range[] = [
  range("0.0.0.0/8", "unspecified", "never"),
  range("255.255.255.255/32", "broadcast", "never"),
  range("224.0.0.0/4", "multicast", "never"),
  range("240.0.0.0/4", "reserved", "never"),
  range("10.0.0.0/8", "private", "private"),
  range("172.16.0.0/12", "private", "private"),
  range("192.168.0.0/16", "private", "private"),
  range("100.64.0.0/10", "shared address space (CGNAT)", "private"),
  range("127.0.0.0/8", "loopback", "private"),
  range("169.254.0.0/16", "link-local", "private"),
  range("192.0.0.0/24", "IETF protocol assignments", "private"),
  range("192.0.2.0/24", "documentation", "private"),
  range("198.51.100.0/24", "documentation", "private"),
  range("203.0.113.0/24", "documentation", "private"),
  range("198.18.0.0/15", "benchmarking", "private"),
  range("192.88.99.0/24", "6to4 relay anycast", "private"),
];

const V6_RANGES: readonly Range[] = [
  range("::/128", "unspecified", "never"),
  range("ff00::/8", "multicast", "never"),
  range("::1/128", "loopback", "private"),
  range("fc00::/7", "unique local (ULA)", "private"),
  range("fe80::/10", "link-local", "private"),
  range("fec0::/10", "site-local", "private"),
  range("100::/64", "discard-only", "private"),
  range("2001::/32", "Teredo", "private"),
  range("2001:db8::/32", "documentation", "private"),
  range("64:ff9b:1::/48", "local-use NAT64", "private"),
];

/** IPv6 prefixes that carry an IPv4 address, and where. */
const V4_CARRIERS: readonly { range: Range; at: number; form: string }[] = [
  { range: range("::ffff:0:0/96", "", "private"), at: 12, form: "IPv4-mapped" },
  { range: range("::/96", "", "private"), at: 12, form: "IPv4-compatible" },
  { range: range("64:ff9b::/96", "", "private"), at: 12, form: "NAT64" },
  { range: range("2002::/16", "", "private"), at: 2, form: "6to4" },
];

function inRange(bytes: readonly number[], r: Range): boolean {
  for (let bit = 0; bit < r.prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    if (((bytes[bit >> 3] ?? 0) & mask) !== ((r.bits[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

export interface AddressClass {
  /** The range's name, with the IPv6 form carrying it when the address is an IPv4 one inside IPv6. */
  range: string;
  /** `never`: refused whatever the operator allows; `private`: refused unless private networks are allowed. */
  kind: RangeKind;
}

/** The non-public range an IP address falls in, or undefined for a public unicast address (and for a non-address). */
export function classifyAddress(address: string): AddressClass | undefined {
  if (isIPv4(address)) {
    const found = V4_RANGES.find((r) => inRange(v4(address), r));
    return found && { range: found.name, kind: found.kind };
  }
  if (!isIPv6(address)) return undefined;
  const bytes = v6(address.replace(/%.*$/, ""));
  const found = V6_RANGES.find((r) => inRange(bytes, r));
  if (found) return { range: found.name, kind: found.kind };
  for (const carrier of V4_CARRIERS) {
    if (!inRange(bytes, carrier.range)) continue;
    const inner = classifyAddress(bytes.slice(carrier.at, carrier.at + 4).join("."));
    if (inner) return { range: `${inner.range} (${carrier.form})`, kind: inner.kind };
  }
  return undefined;
}

/** @throws WebhookError `ENDPOINT_ADDRESS_REFUSED` when the policy refuses `address` */
export function checkAddress(address: string, policy: AddressPolicy, host = address): void {
  const found = classifyAddress(address);
  if (found === undefined || (found.kind === "private" && policy.allowPrivateNetworks)) return;
  webhookError(
    "ENDPOINT_ADDRESS_REFUSED",
    found.kind === "never"
      ? `${host} is ${found.range} (${address}): a webhook endpoint needs a unicast address.`
      : `${host} is ${found.range} (${address}): webhook endpoints on non-public networks are refused unless the operator allows them.`,
    { host, address, range: found.range },
  );
}

/**
 * Parses and checks an endpoint URL: a string of at most 2,048 characters, `https:` (or `http:` when the operator
 * allows it), a host, no user name or password, no fragment; an IP literal host is checked against the policy here.
 * @throws WebhookError `INVALID_ENDPOINT_URL` or `ENDPOINT_ADDRESS_REFUSED`
 */
export function parseEndpointUrl(raw: unknown, policy: AddressPolicy): EndpointUrl {
  if (typeof raw !== "string" || raw.length === 0) webhookError("INVALID_ENDPOINT_URL", "An endpoint URL is a non-empty string.");
  if (raw.length > MAX_URL_LENGTH)
    webhookError("INVALID_ENDPOINT_URL", `An endpoint URL has at most ${MAX_URL_LENGTH} characters.`, { length: raw.length });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return webhookError("INVALID_ENDPOINT_URL", "The endpoint URL does not parse.");
  }
  const secure = url.protocol === "https:";
  if (!secure && !(url.protocol === "http:" && policy.allowHttp))
    webhookError("INVALID_ENDPOINT_URL", policy.allowHttp ? "An endpoint URL is http: or https:." : "An endpoint URL is https:.", {
      protocol: url.protocol,
    });
  if (url.username !== "" || url.password !== "") webhookError("INVALID_ENDPOINT_URL", "An endpoint URL carries no user name or password.");
  if (url.hash !== "" || raw.includes("#")) webhookError("INVALID_ENDPOINT_URL", "An endpoint URL has no fragment.");
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (hostname === "") webhookError("INVALID_ENDPOINT_URL", "An endpoint URL names a host.");
  const ipLiteral = isIPv4(hostname) || isIPv6(hostname);
  if (ipLiteral) checkAddress(hostname, policy, url.host);
  return {
    href: url.href,
    secure,
    hostname,
    port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
    hostHeader: url.host,
    path: `${url.pathname}${url.search}`,
    ipLiteral,
  };
}

/**
 * The address to connect to: the IP literal itself, or the first address the host resolves to once every address it
 * resolves to has passed the policy (one refused address refuses the host).
 * @throws WebhookError `ENDPOINT_ADDRESS_REFUSED` (also when the host does not resolve)
 */
export async function resolveEndpoint(
  endpoint: EndpointUrl,
  policy: AddressPolicy,
  lookup: HostLookup = systemLookup,
): Promise<ResolvedAddress> {
  if (endpoint.ipLiteral) return { address: endpoint.hostname, family: isIPv6(endpoint.hostname) ? 6 : 4 };
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await lookup(endpoint.hostname);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new WebhookError("ENDPOINT_ADDRESS_REFUSED", `${endpoint.hostname} does not resolve${code ? ` (${code})` : ""}.`, {
      host: endpoint.hostname,
      reason: "unresolvable",
    });
  }
  if (addresses.length === 0)
    webhookError("ENDPOINT_ADDRESS_REFUSED", `${endpoint.hostname} does not resolve.`, { host: endpoint.hostname, reason: "unresolvable" });
  for (const a of addresses) {
    if (!isIPv4(a.address) && !isIPv6(a.address))
      webhookError("ENDPOINT_ADDRESS_REFUSED", `${endpoint.hostname} resolves to something that is not an IP address.`, {
        host: endpoint.hostname,
      });
    checkAddress(a.address, policy, endpoint.hostname);
  }
  return addresses[0]!;
}
