import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

/**
 * `npm run dev` serves the console on http://localhost:5173 and forwards /api to the development
 * server (`npm run dev` at the repository root, port 3333), so the browser talks to one origin.
 * Set API_URL to point it elsewhere.
 */
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': { target: process.env.API_URL ?? 'http://127.0.0.1:3333' } },
  },
  worker: { format: 'es' },
  build: { chunkSizeWarningLimit: 2000 },
})
