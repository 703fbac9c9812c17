import { Hono } from 'hono'
import type { Deps } from '../deps.js'

export function routes(_deps: Deps) {
  return new Hono()
}
