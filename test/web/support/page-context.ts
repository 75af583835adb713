/** The context the server-side page renderers get, as a gateway on the preview network would give it. */
export const PAGE_CONTEXT = {
  assets: { css: "/assets/app.css", js: "/assets/app.js", verifyJs: "/assets/verify.js", shareJs: "/assets/share.js" },
  shortLinkBase: "https://go.test",
  now: 1_800_000_000_000,
  origin: "https://pages.test",
  chain: { network: "preview", explorerUrl: "https://explorer.test/tx/{tx}", faucetEnabled: true },
};
