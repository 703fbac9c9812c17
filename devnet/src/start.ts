/**
 * `npm start`: build the SDK, frame-app and secure-site for the local stack, then serve every origin
 * of DESIGN.md §3 that exists so far. Ctrl+C stops everything.
 */
import { execFileSync } from 'node:child_process'
import type { Server } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildEnv, ports, urls } from './stack.js'
import { serve } from './static.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const at = (path: string) => join(root, path)

if (!process.argv.includes('--no-build')) {
  console.log('Building the SDK, frame-app and secure-site…')
  for (const workspace of ['sdk', 'frame-app', 'secure-site'])
    execFileSync('npm', ['run', 'build', '--silent', '-w', workspace], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...buildEnv },
    })
}

const frameOrigin = new URL(urls.frame).origin
const secureOrigin = new URL(urls.secure).origin
const csp = (rules: Record<string, string>) =>
  Object.entries({ 'default-src': "'self'", 'base-uri': "'none'", 'object-src': "'none'", ...rules })
    .map(([k, v]) => `${k} ${v}`)
    .join('; ')

// The demo host page runs under a strict CSP: besides itself it allows only the frame origin.
const demo: serve.Options = {
  port: ports.demo,
  hosts: ['127.0.0.1', '::1'],
  mounts: [
    { prefix: '/sdk/', dir: at('sdk/dist') },
    { prefix: '/', dir: at('examples/demo') },
  ],
  headers: { 'content-security-policy': csp({ 'frame-src': frameOrigin }) },
}

const servers: Server[] = (
  await Promise.all([
    // Machines without an IPv6 loopback still serve the demo on 127.0.0.1.
    serve(demo).catch(() => serve({ ...demo, hosts: ['127.0.0.1'] })),
    serve({
      port: ports.frame,
      hosts: ['127.0.0.1'],
      mounts: [{ prefix: '/', dir: at('frame-app/dist') }],
      headers: {
        'content-security-policy': csp({ 'frame-src': secureOrigin, 'img-src': "'self' data:", 'frame-ancestors': '*' }),
      },
    }),
    // frame-ancestors is checked against every ancestor, the dapp's top page included, so it cannot
    // single out the frame-app; the secure-site pins its parent origin in code instead.
    serve({
      port: ports.secure,
      hosts: ['127.0.0.1'],
      mounts: [{ prefix: '/', dir: at('secure-site/dist') }],
      headers: { 'content-security-policy': csp({ 'frame-ancestors': '*' }) },
    }),
  ])
).flat()

console.log(`
Doorway local stack is up.
  Demo:        ${urls.demo}
  Frame-app:   ${urls.frame}
  Secure-site: ${urls.secure}
Open the demo and press "Connect Wallet". Ctrl+C stops everything.`)

const stop = () => {
  for (const server of servers) server.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
