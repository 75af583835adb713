import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "data/**", ".tmp/**", "**/.scratch/**", "onchain/plutus.json", "onchain/plutus-trace.json"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["services/**/*.ts", "shared/**/*.ts"],
    rules: { "no-console": "error" },
  },
  {
    files: ["test/support/*.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
