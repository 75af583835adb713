/**
 * The SSRF guard: URLs and addresses refused before any connection, a hostname resolving to loopback refused, the
 * connection pinned to the address checked, redirects not followed, responses read only to a bound, slow endpoints
 * timed out. A real receiver on 127.0.0.1 sees what reaches it.
 */
import { expect } from "chai";
import { createServer } from "node:http";
import { createServer as createTlsServer } from "node:tls";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import {
  checkAddress,
  classifyAddress,
  createHttpSender,
  parseEndpointUrl,
  resolveEndpoint,
  type AddressPolicy,
  type HostLookup,
  type WebhookErrorType,
} from "../../shared/webhooks";
import { Receiver } from "./support";

const STRICT: AddressPolicy = { allowPrivateNetworks: false, allowHttp: true };
const OPEN: AddressPolicy = { allowPrivateNetworks: true, allowHttp: true };

async function refusal(action: () => unknown): Promise<{ type?: WebhookErrorType; message: string }> {
  try {
    await action();
  } catch (err) {
    return err as { type?: WebhookErrorType; message: string };
  }
  return expect.fail("expected a refusal");
}

const fixedLookup = (...addresses: string[]): HostLookup & { calls: number } => {
  const lookup = Object.assign(
    async () => {
      lookup.calls += 1;
      return addresses.map((address) => ({ address, family: (address.includes(":") ? 6 : 4) as 4 | 6 }));
    },
    { calls: 0 },
  );
  return lookup;
};

describe("webhooks: SSRF guard", function () {
  this.timeout(20_000);

  describe("addresses", () => {
    const refused: [string, string][] = [
      ["127.0.0.1", "loopback"],
      ["10.20.30.40", "private"],
      ["172.16.0.1", "private"],
      ["192.168.1.1", "private"],
      ["100.64.0.1", "shared address space (CGNAT)"],
      ["169.254.169.254", "link-local"],
      ["0.0.0.0", "unspecified"],
      ["224.0.0.1", "multicast"],
      ["255.255.255.255", "broadcast"],
      ["::1", "loopback"],
      ["::", "unspecified"],
      ["fd00::1", "unique local (ULA)"],
      ["fc00::5", "unique local (ULA)"],
      ["fe80::1", "link-local"],
      ["ff02::1", "multicast"],
      ["::ffff:127.0.0.1", "loopback (IPv4-mapped)"],
      ["::ffff:a9fe:a9fe", "link-local (IPv4-mapped)"],
      ["::10.0.0.1", "private (IPv4-compatible)"],
      ["64:ff9b::c0a8:101", "private (NAT64)"],
      ["2002:7f00:1::", "loopback (6to4)"],
    ];
    for (const [address, range] of refused)
      it(`refuses ${address} (${range})`, async () => {
        expect(classifyAddress(address)?.range).to.equal(range);
        expect((await refusal(() => checkAddress(address, STRICT))).type).to.equal("ENDPOINT_ADDRESS_REFUSED");
      });

    it("lets public unicast addresses through, in IPv4, IPv6 and IPv4-mapped form", () => {
      for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1"])
        expect(classifyAddress(address), address).to.equal(undefined);
    });

    it("allows private ranges when the operator allows them, but never unspecified, multicast or broadcast", async () => {
      for (const address of ["127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "fd00::1"]) checkAddress(address, OPEN);
      for (const address of ["0.0.0.0", "::", "224.0.0.1", "255.255.255.255"])
        expect((await refusal(() => checkAddress(address, OPEN))).type, address).to.equal("ENDPOINT_ADDRESS_REFUSED");
    });
  });

  describe("URLs", () => {
    it("refuses IP-literal hosts in every notation the URL parser accepts", async () => {
      for (const url of [
        "https://127.0.0.1/hook",
        "https://10.1.2.3/",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/",
        "https://[fd00::1]:8443/",
        "https://2130706433/", // 127.0.0.1 as one number
        "https://0x7f.1/", // 127.0.0.1 in hex
        "https://[::ffff:127.0.0.1]/",
      ])
        expect((await refusal(() => parseEndpointUrl(url, STRICT))).type, url).to.equal("ENDPOINT_ADDRESS_REFUSED");
    });

    it("refuses http: unless allowed, credentials, fragments, other schemes, junk and URLs over 2,048 characters", async () => {
      const httpsOnly: AddressPolicy = { allowPrivateNetworks: false, allowHttp: false };
      for (const [url, policy] of [
        ["http://hooks.example.com/", httpsOnly],
        ["https://user:pw@hooks.example.com/", STRICT],
        ["https://hooks.example.com/#x", STRICT],
        ["ftp://hooks.example.com/", STRICT],
        ["file:///etc/passwd", STRICT],
        ["not a url", STRICT],
        [`https://hooks.example.com/${"a".repeat(2_040)}`, STRICT],
        [42, STRICT],
      ] as [unknown, AddressPolicy][])
        expect((await refusal(() => parseEndpointUrl(url, policy))).type, String(url).slice(0, 40)).to.equal("INVALID_ENDPOINT_URL");
      expect(parseEndpointUrl("https://Hooks.Example.com:8443/a?b=1", STRICT)).to.deep.include({
        hostname: "hooks.example.com",
        port: 8443,
        hostHeader: "hooks.example.com:8443",
        path: "/a?b=1",
        secure: true,
      });
    });

    it("refuses a hostname that resolves to loopback (the system resolver's localhost, and a name of our own)", async () => {
      expect((await refusal(() => resolveEndpoint(parseEndpointUrl("http://localhost:9/", STRICT), STRICT))).type).to.equal(
        "ENDPOINT_ADDRESS_REFUSED",
      );
      const endpoint = parseEndpointUrl("https://rebind.example.com/", STRICT);
      expect((await refusal(() => resolveEndpoint(endpoint, STRICT, fixedLookup("127.0.0.1")))).type).to.equal("ENDPOINT_ADDRESS_REFUSED");
    });

    it("refuses a hostname when any one of its addresses is refused", async () => {
      const endpoint = parseEndpointUrl("https://mixed.example.com/", STRICT);
      const err = await refusal(() => resolveEndpoint(endpoint, STRICT, fixedLookup("93.184.215.14", "10.0.0.7")));
      expect(err.type).to.equal("ENDPOINT_ADDRESS_REFUSED");
      expect(err.message).to.include("10.0.0.7");
    });

    it("refuses a hostname that does not resolve", async () => {
      const endpoint = parseEndpointUrl("https://nowhere.invalid/", STRICT);
      const failing: HostLookup = async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
      };
      expect((await refusal(() => resolveEndpoint(endpoint, STRICT, failing))).type).to.equal("ENDPOINT_ADDRESS_REFUSED");
    });
  });

  describe("the sender", () => {
    let receiver: Receiver;
    beforeEach(async () => (receiver = await Receiver.start()));
    afterEach(() => receiver.close());

    const send = (url: string, policy = OPEN, extra: Partial<Parameters<typeof createHttpSender>[0]> = {}) =>
      createHttpSender({ policy, timeoutMs: 2_000, maxResponseBytes: 4_096, ...extra })({
        url,
        headers: { "webhook-id": "evt_1" },
        body: "{}",
      });

    it("refuses 127.0.0.1 and a name resolving to it without the operator's setting: nothing reaches the receiver", async () => {
      const direct = await send(receiver.url(), STRICT);
      const named = await send(`http://hooks.example.com:${receiver.port}/hook`, STRICT, { lookup: fixedLookup("127.0.0.1") });
      expect(direct).to.include({ ok: false, failure: "ENDPOINT_ADDRESS_REFUSED" });
      expect(named).to.include({ ok: false, failure: "ENDPOINT_ADDRESS_REFUSED" });
      expect(receiver.received).to.have.length(0);
    });

    it("connects to the address it checked, once resolved, with the URL's host in the Host header", async () => {
      const lookup = fixedLookup("127.0.0.1");
      const outcome = await send(`http://hooks.example.com:${receiver.port}/hook?x=1`, OPEN, { lookup });
      expect(outcome).to.include({ ok: true, status: 200 });
      expect(lookup.calls).to.equal(1);
      expect(receiver.received[0]).to.deep.include({ path: "/hook?x=1", body: "{}" });
      expect(receiver.received[0]!.headers).to.include({
        host: `hooks.example.com:${receiver.port}`,
        "webhook-id": "evt_1",
        "content-type": "application/json",
      });
    });

    it("over TLS, connects to the checked address and names the URL's host as the server name", async () => {
      const names: string[] = [];
      // no certificate: the handshake fails after the server has read the name the client asked for
      const tls = createTlsServer({
        SNICallback: (name, cb) => {
          names.push(name);
          cb(null, undefined);
        },
      });
      tls.on("tlsClientError", () => undefined);
      tls.listen(0, "127.0.0.1");
      await once(tls, "listening");
      try {
        const port = (tls.address() as AddressInfo).port;
        const outcome = await send(`https://hooks.example.com:${port}/`, OPEN, { lookup: fixedLookup("127.0.0.1") });
        expect(outcome).to.include({ ok: false, failure: "CONNECTION_FAILED" });
        expect(names).to.deep.equal(["hooks.example.com"]);
      } finally {
        tls.close();
      }
    });

    it("does not follow a redirect, even to a private address: a 3xx is a failed attempt", async () => {
      const inner = await Receiver.start();
      try {
        receiver.script = [(res) => res.writeHead(307, { location: inner.url("/internal") }).end()];
        const outcome = await send(receiver.url());
        expect(outcome).to.include({ ok: false, status: 307, failure: "REDIRECT_NOT_FOLLOWED" });
        expect(inner.received).to.have.length(0);
      } finally {
        await inner.close();
      }
    });

    it("reads at most 4 KiB of a huge response and drops the connection", async () => {
      let written = 0;
      let closed: Promise<unknown> | undefined;
      receiver.script = [
        (res) => {
          res.writeHead(200, { "content-type": "text/plain" });
          closed = once(res, "close");
          const chunk = Buffer.alloc(64 * 1024, "x");
          const pump = () => {
            while (written < 256 * 1024 * 1024 && !res.destroyed) {
              written += chunk.length;
              if (!res.write(chunk)) return void res.once("drain", pump);
            }
            res.end();
          };
          pump();
        },
      ];
      const started = Date.now();
      const outcome = await send(receiver.url());
      expect(outcome).to.include({ ok: true, status: 200 });
      expect(outcome.responseExcerpt).to.have.length(4_096);
      await closed;
      expect(written, "bytes the receiver managed to write").to.be.below(16 * 1024 * 1024);
      expect(Date.now() - started).to.be.below(2_000);
    });

    it("times out an endpoint that never answers", async () => {
      receiver.script = [() => undefined]; // holds the request open
      const started = Date.now();
      const outcome = await send(receiver.url(), OPEN, { timeoutMs: 300 });
      expect(outcome).to.include({ ok: false, failure: "TIMEOUT" });
      expect(Date.now() - started).to.be.within(250, 1_500);
    });

    it("keeps the status when only the body is slow", async () => {
      receiver.script = [(res) => res.writeHead(200, { "content-type": "text/plain" }).write("partial")];
      const outcome = await send(receiver.url(), OPEN, { timeoutMs: 300 });
      expect(outcome).to.include({ ok: true, status: 200, responseExcerpt: "partial" });
    });

    it("reports a refused connection as a failed attempt", async () => {
      const server = createServer();
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      const port = (server.address() as AddressInfo).port;
      await new Promise((r) => server.close(r));
      expect(await send(`http://127.0.0.1:${port}/`)).to.include({ ok: false, failure: "CONNECTION_FAILED" });
    });
  });
});
