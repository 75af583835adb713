/**
 * Open Graph data of a short-link page (docs/api.md#open-graph-data). Query parameters count as "verified" only when the
 * metadata holds `uv_url_<param>` equal to the SHA-256 hex of the value; `uv_og_title` / `uv_og_desc` templates
 * with `{param}` placeholders are used only when every placeholder names a verified parameter (its value cropped at
 * the last `~`, the salt). Otherwise: diploma defaults, or the generic ones.
 */
import { templateIdOf } from "../domain/certificate-metadata";
import { vouchesFor, withoutSalt } from "./revealed-values";

export interface OpenGraphData {
  title: string;
  description: string;
  image: string;
  /** `{SHORT_LINK_DOMAIN}/{code}` plus the verified parameters. */
  url: string;
}

export const GENERIC_TITLE = "Blockchain-verified certificate";
export const GENERIC_DESCRIPTION = "Anchored on the Cardano blockchain. Open the link to verify the original document.";

const trimSlash = (u: string) => u.replace(/\/+$/, "");

/** Query parameters whose SHA-256 the metadata vouches for, in their original order. */
function verifiedParams(metadata: Record<string, unknown>, query: ReadonlyArray<[string, string]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of query) if (vouchesFor(metadata, name, value)) out.set(name, value);
  return out;
}

/** Fills `{param}` placeholders from verified params; undefined when one is not verified. */
function fillTemplate(template: string, verified: ReadonlyMap<string, string>): string | undefined {
  let complete = true;
  const text = template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const v = verified.get(name);
    if (v === undefined) complete = false;
    return v === undefined ? "" : withoutSalt(v);
  });
  return complete ? text : undefined;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

export function openGraphData(input: {
  metadata: Record<string, unknown>;
  rawMetadata: string;
  code: string;
  query: ReadonlyArray<[string, string]>;
  /** null: the gateway's own pages, on the short links' origin. */
  frontendUrl: string | null;
  shortLinkDomain: string;
}): OpenGraphData {
  const m = input.metadata;
  const verified = verifiedParams(m, input.query);
  const templateId = templateIdOf(input.rawMetadata);

  let title = str(m["uv_og_title"]) !== undefined ? fillTemplate(m["uv_og_title"] as string, verified) : undefined;
  let description = str(m["uv_og_desc"]) !== undefined ? fillTemplate(m["uv_og_desc"] as string, verified) : undefined;
  if (templateId === "diploma") {
    const t = str(m["title"]);
    const name = str(m["name"]);
    const issuer = str(m["issuer"]);
    title ??= t !== undefined ? (name !== undefined ? `${t} · ${name}` : t) : undefined;
    description ??= issuer !== undefined ? `Issued by ${issuer}. Anchored on the Cardano blockchain.` : undefined;
  }
  title ??= GENERIC_TITLE;
  description ??= GENERIC_DESCRIPTION;

  const img = str(m["uv_og_img"]);
  const image =
    img !== undefined && /^https?:\/\//i.test(img)
      ? img
      : `${trimSlash(input.frontendUrl ?? new URL(input.shortLinkDomain).origin)}/og/${templateId !== undefined && /^[A-Za-z0-9_-]+$/.test(templateId) ? templateId : "default"}.png`;

  const params = new URLSearchParams([...verified.entries()]).toString();
  const url = `${trimSlash(input.shortLinkDomain)}/${input.code}${params !== "" ? `?${params}` : ""}`;
  return { title, description, image, url };
}
