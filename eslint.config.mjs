import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "data/**",
      ".tmp/**",
      "**/.scratch/**",
      "onchain/plutus.json",
      "onchain/plutus-trace.json",
      "eslint.config.mjs",
    ],
  },
  ...tseslint.configs.recommended,
  {
    // Type-aware rules: a promise nobody awaits (or one handed where a callback's result is ignored) loses its error.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["services/**/*.ts", "shared/**/*.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Browser code builds the DOM from text nodes only: nothing it shows may be parsed as HTML (docs/web-pages.md#security).
    files: ["web/**/*.ts"],
    rules: {
      "no-console": "error",
      "no-restricted-properties": [
        "error",
        ...["innerHTML", "outerHTML", "insertAdjacentHTML", "write", "writeln", "createContextualFragment"].map((property) => ({
          property,
          message: "Build nodes with web/dom.ts (text content only).",
        })),
      ],
    },
  },
  {
    // The mocha reporter is plain CommonJS outside the TypeScript project.
    files: ["test/support/*.js"],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, "@typescript-eslint/no-require-imports": "off" },
  },
);
