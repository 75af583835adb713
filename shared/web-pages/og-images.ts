/**
 * Serves the link-preview pictures `/og/<template>.png` (docs/web-pages.md#preview-images) that short links name as
 * `og:image` (shared/presentation/open-graph.ts). They are files rendered once by `npm run build:og-images` and
 * committed under `web/og/`; a template id without a picture of its own gets the default one, so every `og:image`
 * the service names answers.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { templateNamed } from "../presentation/certificate-card";

export const OG_IMAGE_PREFIX = "/og/";
/** `web/og/` beside `shared/`: the committed pictures in a checkout, their copy in `dist/`. */
export const OG_IMAGE_DIR = join(__dirname, "..", "..", "web", "og");

const cache = new Map<string, Buffer>();

/** The PNG for `<id>.png` (the template's, else the default's); undefined for any other name. */
export function ogImage(fileName: string): Buffer | undefined {
  const id = /^([A-Za-z0-9_-]{1,64})\.png$/.exec(fileName)?.[1];
  if (id === undefined) return undefined;
  const name = id === "default" ? "default" : templateNamed(id).name;
  let png = cache.get(name);
  if (png === undefined) {
    const path = join(OG_IMAGE_DIR, `${name}.png`);
    if (!existsSync(path)) return undefined;
    png = readFileSync(path);
    cache.set(name, png);
  }
  return png;
}
