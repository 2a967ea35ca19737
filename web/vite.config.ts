import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * @weft/catalog is pure data and functions; saying so lets the bundle keep only what the web imports
 * (its form helpers), not the whole catalogue. Other modules keep the bundler's own judgement.
 */
const catalogIsPure = (id: string) => (/[\\/]packages[\\/]catalog[\\/]/.test(id) ? false : undefined);

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` } },
  build: { outDir: 'dist', emptyOutDir: true, rolldownOptions: { treeshake: { moduleSideEffects: catalogIsPure } } },
});
