/**
 * Resolves a short-link code to its certificate page (docs/api.md#short-links): the code stands for the first hash
 * anchored with it (bound when the certificate was indexed, never taken over by a later hash that shares the code,
 * and only for hashes of at least 16 bytes). The certificates of the hash (oldest first) go through the update
 * policy; the preview (Open Graph data) comes only from anchors the policy authorises. A rolled-back anchor
 * releases its code.
 */
import type { Hex } from "../domain/hex";
import { openGraphData } from "../presentation/open-graph";
import { resolveDisplay } from "../presentation/update-policy";
import { shortLinkPage, unknownLinkPage, type LinkPage } from "./short-link-page";

export interface LinkedCertificate {
  hash: string;
  issuer: string;
  metadata: string;
  slot: number;
}

export interface CertificateSource {
  /** Every certificate of a hash, oldest first. */
  byHash(hash: Hex): Promise<LinkedCertificate[]>;
  /** The hash a code is bound to. */
  hashOfShortCode(code: string): Promise<Hex | undefined>;
}

export interface ShortLinkSettings {
  /** Base URL of the certificate pages; null = the gateway's own pages, so the redirect is root-relative. */
  frontendUrl: string | null;
  shortLinkDomain: string;
}

export interface ResolvedPage extends LinkPage {
  status: 200 | 404;
  hash?: string;
}

const trimSlash = (u: string) => u.replace(/\/+$/, "");

export class ShortLinkResolver {
  constructor(
    private readonly source: CertificateSource,
    private readonly settings: ShortLinkSettings,
  ) {}

  /**
   * The page for a code.
   * @param query the request's query parameters in order (passed on to the certificate page)
   */
  async resolve(code: string, query: ReadonlyArray<[string, string]>): Promise<ResolvedPage> {
    const hash = await this.source.hashOfShortCode(code);
    const certificates = hash === undefined ? [] : await this.source.byHash(hash);
    if (hash === undefined || certificates.length === 0) {
      return { status: 404, ...unknownLinkPage(code, this.settings.frontendUrl ?? "/") };
    }
    const display = resolveDisplay(certificates);
    const og = openGraphData({
      metadata: display.preview,
      rawMetadata: JSON.stringify(display.preview),
      code,
      query,
      frontendUrl: this.settings.frontendUrl,
      shortLinkDomain: this.settings.shortLinkDomain,
    });
    const qs = new URLSearchParams([...query]).toString();
    const redirect = `${trimSlash(this.settings.frontendUrl ?? "")}/verify/${hash}${qs !== "" ? `?${qs}` : ""}`;
    return { status: 200, ...shortLinkPage(og, redirect), hash };
  }
}
