import { defineConfig } from 'vite';

/**
 * The browser app: Preact (a 4 KB React-compatible renderer) bundled by Vite. Run from the
 * repository root (`npm run build:web`); the output, apps/web/dist, is what the API serves at `/`.
 */
export default defineConfig({
  root: 'apps/web',
  publicDir: false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The CSP allows no inline script, and browsers of es2022 all know modulepreload.
    modulePreload: { polyfill: false },
    // Everything is a file of its own: no data: fonts or scripts.
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        // A chunk is named after its first module; the API serves only names of letters, digits,
        // - and _ before the extension (a shared `customer.schema.ts` would be customer.schema-….js).
        chunkFileNames: (chunk) => `assets/${chunk.name.replace(/[^A-Za-z0-9_-]/g, '-')}-[hash].js`,
      },
    },
  },
  // `npm run dev:web` beside `npm start`: the API answers everything but the app's own files.
  server: {
    proxy: Object.fromEntries(
      ['/api', '/openapi.json', '/status', '/badge'].map((path) => [path, 'http://127.0.0.1:8080']),
    ),
  },
});
