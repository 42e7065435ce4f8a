import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["{src,machines,schemas,conformance,examples,bench}/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks"
  }
})
