/**
 * `npm run dev`: the API server (restarted by `tsx watch` when server code changes) on
 * API_PORT (default 3001) and Vite's dev server with hot reload on PORT (default 3000), which
 * proxies /v1, /api, /files, /i18n and /healthz to the API (vite.config.ts). Open PORT.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createServer } from 'vite';

const webPort = Number(process.env.PORT ?? 3000);
const apiPort = process.env.API_PORT ?? '3001';
process.env.API_PORT = apiPort;

const api = spawn(path.resolve('node_modules/.bin/tsx'), ['watch', 'server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: apiPort,
    // Vite serves the app from the sources; the API must not build or serve dist/.
    SHINOBU_SKIP_BUILD: 'true',
    // Links in mail and signed file URLs must point at the origin the browser uses.
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${webPort}`,
  },
});

const vite = await createServer({ server: { port: webPort, strictPort: true } });
await vite.listen();
vite.printUrls();

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await vite.close();
  if (api.exitCode === null) {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
  }
  process.exit(code);
}

api.on('exit', (code) => {
  if (!stopping) console.error(`shinobu dev: the API server stopped (exit code ${code})`);
  void stop(code ?? 1);
});
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
