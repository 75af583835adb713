/**
 * Resolves a short-link code to its certificate page (reference-study §7.2): a known mapping in `short_links`
 * first; otherwise the certificates whose hash starts with the code's 14-hex prefix, keeping the first whose own
 * code equals the code, and remembering the mapping. The certificates of the hash (oldest first) go through the
 * update policy; the page's Open Graph data come from the displayed metadata. A mapping whose certificates are
 * gone (rolled back) counts as unknown.
 */
import { hashPrefixOf, shortCodeOf } from "../domain/short-code";
import { isDuplicateKeyError, type Collection, type Store, type StoredDocument } from "../store";
import { shortLinkPage, unknownLinkPage } from "./html-page";
import { openGraphData } from "./open-graph";
import { resolveDisplay } from "./update-policy";

export interface LinkedCertificate {
  hash: string;
  issuer: string;
  metadata: string;
  slot: number;
}

export interface CertificateSource {
  /** Every certificate of a hash, oldest first. */
  byHash(hash: string): Promise<LinkedCertificate[]>;
  hashesWithPrefix(prefix: string, limit?: number): Promise<string[]>;
}

export interface ShortLinkSettings {
  frontendUrl: string;
  shortLinkDomain: string;
}

export interface ResolvedPage {
  status: 200 | 404;
  html: string;
  hash?: string;
}

type LinkDoc = StoredDocument & { hash: string; clicks: number };

const trimSlash = (u: string) => u.replace(/\/+$/, "");

export class ShortLinkResolver {
  private constructor(
    private readonly links: Collection<LinkDoc>,
    private readonly source: CertificateSource,
    private readonly settings: ShortLinkSettings,
  ) {}

  static async open(store: Store, source: CertificateSource, settings: ShortLinkSettings): Promise<ShortLinkResolver> {
    return new ShortLinkResolver(store.collection<LinkDoc>("short_links"), source, settings);
  }

  /** The certificate hash a code stands for, or undefined. Assumes a well-formed code (isShortCode). */
  async hashOf(code: string): Promise<string | undefined> {
    const known = await this.links.findOne({ _id: code });
    if (known) return known.hash;
    const prefix = hashPrefixOf(code);
    if (prefix === undefined) return undefined;
    const hash = (await this.source.hashesWithPrefix(prefix)).find((h) => h.length >= 16 && shortCodeOf(h) === code);
    if (hash === undefined) return undefined;
    try {
      await this.links.insertOne({ _id: code, hash, clicks: 0 });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err; // a concurrent resolve stored it first
    }
    return hash;
  }

  /**
   * The page for a code.
   * @param query the request's query parameters in order (passed on to the certificate page)
   */
  async resolve(code: string, query: ReadonlyArray<[string, string]>): Promise<ResolvedPage> {
    let hash = await this.hashOf(code);
    let certificates = hash === undefined ? [] : await this.source.byHash(hash);
    if (hash !== undefined && certificates.length === 0) {
      // The remembered certificate was rolled back: forget the mapping and look for another hash with this code.
      await this.links.deleteOne({ _id: code });
      hash = await this.hashOf(code);
      certificates = hash === undefined ? [] : await this.source.byHash(hash);
    }
    if (hash === undefined || certificates.length === 0) {
      return { status: 404, html: unknownLinkPage(code, this.settings.frontendUrl) };
    }
    await this.links.updateOne({ _id: code }, { $inc: { clicks: 1 } });
    const display = resolveDisplay(certificates);
    const shown = display.displayed[display.displayed.length - 1]!;
    const og = openGraphData({
      metadata: display.metadata,
      rawMetadata: display.policy === "accumulate" ? JSON.stringify(display.metadata) : shown.metadata,
      code,
      query,
      frontendUrl: this.settings.frontendUrl,
      shortLinkDomain: this.settings.shortLinkDomain,
    });
    const qs = new URLSearchParams([...query]).toString();
    const redirect = `${trimSlash(this.settings.frontendUrl)}/verify/${hash}${qs !== "" ? `?${qs}` : ""}`;
    return { status: 200, html: shortLinkPage(og, redirect), hash };
  }

  async clicks(code: string): Promise<number> {
    return (await this.links.findOne({ _id: code }))?.clicks ?? 0;
  }
}
