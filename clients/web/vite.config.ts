import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// `npm run dev` serves the app on 5173 and sends the Connect calls to a running gateway (make run).
const gateway = "http://127.0.0.1:8080"; // make run's gateway

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { "^/(menagerie\\.|games/)": { target: gateway, changeOrigin: false } } },
});
