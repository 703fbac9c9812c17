/**
 * Every workspace declares in its package.json each workspace it imports by name (docs/architecture.md
 * §11): dependency-cruiser checks that the import is by name, this checks that the name is declared.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces

type Manifest = { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
const manifest = (workspace: string) => JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')) as Manifest

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|tsx)$/.test(name) ? [path] : []
  })
}

/** The workspace package names a file imports, statically or lazily. */
function imported(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(@doorway\/[a-z-]+)/g)].map((m) => m[1]!)
}

describe('workspace dependencies', () => {
  test.each(workspaces)('behavior: %s declares every workspace it imports', (workspace) => {
    const { name, dependencies = {}, devDependencies = {} } = manifest(workspace)
    const declared = new Set([name, ...Object.keys(dependencies), ...Object.keys(devDependencies)])
    const missing = sources(join(root, workspace)).flatMap((file) =>
      imported(file).filter((pkg) => !declared.has(pkg)).map((pkg) => `${file.slice(root.length + 1)} imports ${pkg}`),
    )
    expect(missing).toEqual([])
  })
})
