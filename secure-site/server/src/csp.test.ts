/**
 * The secure origin's Content Security Policy (docs/embedded-wallet.md §10): the exact directives on a
 * page and on API answers, and the secure-site's own sources kept free of what that policy blocks (an
 * inline style or script, or a Trusted Types sink fed a string), so that a regression fails here rather
 * than as a blank frame in a browser.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from './app.js'

const expected = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'connect-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'base-uri': ["'none'"],
  'object-src': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ['*'],
  'require-trusted-types-for': ["'script'"],
  'trusted-types': ["'none'"],
}

/** A policy as directive → sources; a directive named twice is kept twice, so the test sees it. */
function directives(policy: string | null): [string, string[]][] {
  return (policy ?? '')
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .filter(([name]) => name)
    .map(([name, ...sources]) => [name!, sources])
}

describe('contentSecurityPolicy', () => {
  let dir: string
  let app: ReturnType<typeof App.app>
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doorway-secure-csp-'))
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>secure</title>')
    await writeFile(join(dir, 'main.js'), 'console.log(1)')
    // Only the static files and the routes that answer before any store is used: the rest is never reached.
    app = App.app({
      storage: {} as App.Deps['storage'],
      secrets: {} as App.Deps['secrets'],
      vault: {} as App.Deps['vault'],
      mailer: { send: async () => {} },
      now: () => 0,
      staticDir: dir,
    })
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  test('behavior: the policy is exactly the expected directives, each once', () => {
    expect(directives(App.contentSecurityPolicy)).toEqual(Object.entries(expected))
    expect(App.contentSecurityPolicy).not.toMatch(/unsafe-|https?:|blob:/)
  })

  test.each([
    ['the page', 'GET', '/', 200],
    ['a script', 'GET', '/main.js', 200],
    ['a missing file', 'GET', '/missing.js', 404],
    ['the health check', 'GET', '/healthz', 200],
    ['an unknown API route', 'GET', '/v1/nothing', 404],
    ['a body over the limit', 'POST', '/v1/devices', 413],
  ])('behavior: %s carries the policy', async (_, method, path, status) => {
    const body = method === 'POST' ? JSON.stringify({ padding: 'x'.repeat(App.bodyLimitBytes) }) : undefined
    const response = await app.request(path, { method, body, headers: body ? { 'content-type': 'application/json' } : {} })
    expect(response.status).toBe(status)
    expect(Object.fromEntries(directives(response.headers.get('content-security-policy')))).toEqual(expected)
  })
})

// What the policy blocks in the page's own code: every Trusted Types sink fed a string (with
// `trusted-types 'none'` no policy can make one), an inline style or script, and code from strings.
// CSSOM writes (`element.style.color = …`) and textContent stay allowed.
const sinks: [string, RegExp][] = [
  ['innerHTML or outerHTML', /\b(?:inner|outer)HTML\b/],
  ['insertAdjacentHTML', /\binsertAdjacentHTML\b/],
  ['setHTMLUnsafe or parseHTMLUnsafe', /\b(?:set|parse)HTMLUnsafe\b/],
  ['createContextualFragment', /\bcreateContextualFragment\b/],
  ['DOMParser', /\bDOMParser\b/],
  ['document.write', /\.write(?:ln)?\s*\(/],
  ['srcdoc', /\bsrcdoc\b/],
  ['a timer given a string', /\bset(?:Timeout|Interval)\s*\(\s*['"`]/],
  ['eval or Function', /\beval\s*\(|\bFunction\s*\(/],
  ['a style or event-handler attribute', /\bsetAttribute(?:NS)?\s*\((?:[^,()]*,)?\s*['"`](?:style|on)/i],
  ['a script or style element', /['"`](?:script|style)['"`]/],
  ['a worker or imported script', /\bnew\s+(?:Shared)?Worker\s*\(|\bimportScripts\b|\bserviceWorker\s*\.\s*register\b/],
  ['a javascript: URL', /javascript:/i],
]

/** Code without its comments: a comment may name a sink to say it is not used. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')
}

/** Each line of `text` that uses a sink, as `file:line: sink`. */
function offences(file: string, text: string): string[] {
  return code(text)
    .split('\n')
    .flatMap((line, i) => sinks.filter(([, pattern]) => pattern.test(line)).map(([name]) => `${file}:${i + 1}: ${name}`))
}

const site = join(dirname(fileURLToPath(import.meta.url)), '../..')
/** What the page bundles: its own sources and the common code they share with the server, tests aside. */
const sources = ['src', 'common'].flatMap((folder) =>
  readdirSync(join(site, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(folder, name)),
)

describe('the secure-site sources', () => {
  test('behavior: the page code is found', () => {
    expect(sources).toEqual(expect.arrayContaining(['src/main.ts', join('src', 'approval', 'Approval.ts'), join('src', 'export', 'Export.ts')]))
  })

  test('behavior: no source uses a sink the policy blocks', () => {
    expect(sources.flatMap((file) => offences(file, readFileSync(join(site, file), 'utf8')))).toEqual([])
  })

  test('behavior: index.html has no inline script, style or handler', () => {
    const html = readFileSync(join(site, 'index.html'), 'utf8')
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/)
      expect(body!.trim()).toBe('')
    }
    expect(html).not.toMatch(/<style\b|\sstyle\s*=|\son[a-z]+\s*=|javascript:/i)
  })

  test.each([
    ['el.innerHTML = html', 'innerHTML or outerHTML'],
    ['node.outerHTML', 'innerHTML or outerHTML'],
    ["root.insertAdjacentHTML('beforeend', html)", 'insertAdjacentHTML'],
    ['el.setHTMLUnsafe(html)', 'setHTMLUnsafe or parseHTMLUnsafe'],
    ['range.createContextualFragment(html)', 'createContextualFragment'],
    ["new DOMParser().parseFromString(html, 'text/html')", 'DOMParser'],
    ['document.write(html)', 'document.write'],
    ['doc.writeln(html)', 'document.write'],
    ['frame.srcdoc = html', 'srcdoc'],
    ["setTimeout('run()', 10)", 'a timer given a string'],
    ['win.setInterval(`tick()`, 10)', 'a timer given a string'],
    ['eval(text)', 'eval or Function'],
    ["new Function('return 1')", 'eval or Function'],
    ["el.setAttribute('style', 'color: red')", 'a style or event-handler attribute'],
    ["el.setAttribute('onclick', 'run()')", 'a style or event-handler attribute'],
    ["el.setAttributeNS(null, 'style', 'x')", 'a style or event-handler attribute'],
    ["doc.createElement('script')", 'a script or style element'],
    ["element(doc, 'style', 'x')", 'a script or style element'],
    ["new Worker('/w.js')", 'a worker or imported script'],
    ["navigator.serviceWorker.register('/sw.js')", 'a worker or imported script'],
    ["a.href = 'javascript:run()'", 'a javascript: URL'],
  ])('param: %s is caught', (line, sink) => {
    expect(offences('x.ts', line)).toContain(`x.ts:1: ${sink}`)
  })

  test('param: comments, CSSOM writes, textContent and the clipboard pass', () => {
    const clean = [
      '/** Built without innerHTML. */',
      "const url = 'http://127.0.0.1/' // not innerHTML",
      "el.style.color = 'red'",
      'el.textContent = text',
      "el.setAttribute('aria-label', label)",
      'navigator.clipboard.writeText(text)',
      'win.setTimeout(() => done(), 10)',
    ].join('\n')
    expect(offences('x.ts', clean)).toEqual([])
  })
})
