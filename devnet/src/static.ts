/** A small static file server with the security headers each origin of the stack needs. */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}

export type Mount = { prefix: string; dir: string }

/** Answers the requests that are its own (an API beside the files) and says so by returning true. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => boolean

export function serve(options: serve.Options): Promise<Server[]> {
  const { mounts, headers, port, hosts, handlers = [] } = options
  const server = () =>
    createServer(async (req, res) => {
      if (handlers.some((handle) => handle(req, res))) return
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      const mount = mounts.find((m) => path.startsWith(m.prefix))
      const file = mount && resolveFile(mount, path)
      const info = file ? await stat(file).catch(() => undefined) : undefined
      if (!file || !info?.isFile() || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain', ...headers }).end('Not found')
        return
      }
      res.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        'content-length': info.size,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        ...headers,
      })
      if (req.method === 'HEAD') res.end()
      else createReadStream(file).pipe(res)
    })
  return Promise.all(
    hosts.map(
      (host) =>
        new Promise<Server>((resolve, reject) => {
          const s = server()
          s.once('error', reject)
          s.listen(port, host, () => resolve(s))
        }),
    ),
  )
}
export declare namespace serve {
  type Options = {
    mounts: Mount[]
    headers: Record<string, string>
    port: number
    hosts: string[]
    /** Tried in order before the mounts; the first that takes a request answers it. */
    handlers?: Handler[]
  }
}

/** Maps a URL path into the mount's folder; refuses anything that would climb out of it. */
export function resolveFile(mount: Mount, path: string): string | undefined {
  const relative = path.slice(mount.prefix.length).replace(/^\/+/, '') || 'index.html'
  const file = normalize(join(mount.dir, relative))
  return file === mount.dir || file.startsWith(mount.dir + sep) ? file : undefined
}
